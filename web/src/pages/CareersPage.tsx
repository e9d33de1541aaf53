import { Page } from "../layout/Page";

export default function CareersPage() {
  return (
    <Page title="Careers">
      <h1 className="text-3xl font-bold">Careers</h1>
    </Page>
  );
}
