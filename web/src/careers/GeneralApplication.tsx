import { Mail } from "lucide-react";
import { CONTACT, mailto } from "../content/contact";
import { buttonClass } from "../ui/button";

export const GENERAL_APPLICATION_SUBJECT = "General Application";

/** For people whose role is not listed: 'Contact Us' opens a mail draft to the general address. */
export function GeneralApplication() {
  return (
    <section aria-labelledby="general-application-title" className="mt-14 rounded-2xl bg-slate-50 px-6 py-10 text-center sm:px-10">
      <h2 id="general-application-title" className="text-2xl font-bold text-slate-900">
        Don't see the right role?
      </h2>
      <p className="mx-auto mt-3 max-w-xl text-slate-600">
        We are always glad to meet people who care about trustworthy AI. Tell us about yourself and how you would like to contribute.
      </p>
      <a href={mailto(CONTACT.general, GENERAL_APPLICATION_SUBJECT)} className={buttonClass("primary", "lg", "mt-6")}>
        <Mail aria-hidden className="size-5" />
        Contact Us
      </a>
    </section>
  );
}
