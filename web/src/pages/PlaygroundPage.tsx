import { Page } from "../layout/Page";

export default function PlaygroundPage() {
  return (
    <Page title="Playground">
      <h1 className="text-3xl font-bold">Playground</h1>
    </Page>
  );
}
