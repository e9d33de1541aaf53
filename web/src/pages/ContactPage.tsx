import { Clock, LifeBuoy, Mail, Rocket } from "lucide-react";
import { CONTACT, mailto } from "../content/contact";
import { Page } from "../layout/Page";
import { WaitlistForm } from "../site/WaitlistForm";
import { Card } from "../ui/card";
import { buttonClass } from "../ui/button";

export default function ContactPage() {
  return (
    <Page title="Contact">
      <div className="mx-auto max-w-5xl">
        <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">Contact</h1>
        <p className="mt-3 max-w-2xl text-slate-600">
          Ask for early access to Smart Decision, or get in touch with our support team.
        </p>
        <div className="mt-8 grid gap-6 md:grid-cols-2">
          <section aria-labelledby="waitlist-title">
            <Card className="h-full">
              <span aria-hidden className="grid size-10 place-items-center rounded-lg bg-brand-50 text-brand-600">
                <Rocket className="size-5" />
              </span>
              <h2 id="waitlist-title" className="mt-4 text-xl font-semibold text-slate-900">
                Join the waitlist
              </h2>
              <p className="mt-2 mb-6 text-sm text-slate-600">
                Leave your email and we will let you know as soon as your access is ready.
              </p>
              <WaitlistForm />
            </Card>
          </section>
          <section aria-labelledby="support-title">
            <Card className="flex h-full flex-col">
              <span aria-hidden className="grid size-10 place-items-center rounded-lg bg-brand-50 text-brand-600">
                <LifeBuoy className="size-5" />
              </span>
              <h2 id="support-title" className="mt-4 text-xl font-semibold text-slate-900">
                Contact Support
              </h2>
              <p className="mt-2 text-sm text-slate-600">
                Questions about the playground, the API or your account? Email us at{" "}
                <a href={mailto(CONTACT.support)} className="font-medium text-brand-700 underline underline-offset-2">
                  {CONTACT.support}
                </a>
                .
              </p>
              <p className="mt-4 flex items-center gap-2 text-sm text-slate-600">
                <Clock className="size-4 shrink-0" aria-hidden />
                We typically respond within 24 hours
              </p>
              <div className="mt-6 md:mt-auto md:pt-6">
                <a href={mailto(CONTACT.support, "Smart Decision support request")} className={buttonClass("secondary")}>
                  <Mail className="size-4" aria-hidden /> Email Support
                </a>
              </div>
            </Card>
          </section>
        </div>
      </div>
    </Page>
  );
}
