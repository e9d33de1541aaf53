import { Page } from "../layout/Page";

export default function TermsPage() {
  return (
    <Page title="Terms of Service">
      <h1 className="text-3xl font-bold">Terms of Service</h1>
    </Page>
  );
}
