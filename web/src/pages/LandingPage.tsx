import { Page } from "../layout/Page";

export default function LandingPage() {
  return (
    <Page title="Smart Decision">
      <h1 className="text-3xl font-bold">Smart Decision</h1>
    </Page>
  );
}
