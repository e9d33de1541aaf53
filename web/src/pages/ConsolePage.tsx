import { Page } from "../layout/Page";

export default function ConsolePage() {
  return (
    <Page title="Smart Decision Console">
      <h1 className="text-3xl font-bold">Smart Decision Console</h1>
    </Page>
  );
}
