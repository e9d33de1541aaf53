import { Page } from "../layout/Page";

export default function SdApiPage() {
  return (
    <Page title="Smart Decision API">
      <h1 className="text-3xl font-bold">Smart Decision API</h1>
    </Page>
  );
}
