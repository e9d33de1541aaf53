import { ArrowLeft, Briefcase, Building2 } from "lucide-react";
import { useEffect, useMemo } from "react";
import { useSearchParams } from "react-router";
import { ApplicationForm } from "../careers/ApplicationForm";
import { ApplyPageLinks } from "../careers/ApplyPageLinks";
import { applicationTarget } from "../careers/positions";
import { Page } from "../layout/Page";
import { ButtonLink } from "../ui/button";
import { Card } from "../ui/card";

export default function ApplyJobPage() {
  const [query] = useSearchParams();
  const queryText = query.toString();
  const target = useMemo(() => applicationTarget(new URLSearchParams(queryText)), [queryText]);

  useEffect(() => {
    window.scrollTo(0, 0);
  }, []);

  return (
    <Page title="Apply for Position" className="max-w-3xl">
      <ButtonLink to="/careers" variant="ghost" className="-ml-2">
        <ArrowLeft aria-hidden className="size-4" />
        Back to Careers
      </ButtonLink>
      <header className="mt-6">
        <h1 className="text-3xl font-bold text-slate-900">Apply for Position</h1>
        <dl className="mt-4 flex flex-wrap gap-2 text-sm">
          <div className="flex items-center gap-1.5 rounded-full bg-brand-50 px-3 py-1 text-brand-700">
            <dt className="sr-only">Department</dt>
            <Building2 aria-hidden className="size-4 shrink-0" />
            <dd className="font-medium">{target.department}</dd>
          </div>
          <div className="flex items-center gap-1.5 rounded-full bg-slate-100 px-3 py-1 text-slate-800">
            <dt className="sr-only">Position</dt>
            <Briefcase aria-hidden className="size-4 shrink-0" />
            <dd className="font-medium">{target.position}</dd>
          </div>
        </dl>
      </header>
      <Card className="mt-8">
        <ApplicationForm target={target} />
      </Card>
      <ApplyPageLinks />
    </Page>
  );
}
