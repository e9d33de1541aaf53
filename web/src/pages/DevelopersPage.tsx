import { Page } from "../layout/Page";

export default function DevelopersPage() {
  return (
    <Page title="Developers">
      <h1 className="text-3xl font-bold">Developers</h1>
    </Page>
  );
}
