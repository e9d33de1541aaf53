import { Page } from "../layout/Page";

export default function NotFoundPage() {
  return (
    <Page title="Page not found">
      <h1 className="text-3xl font-bold">Page not found</h1>
    </Page>
  );
}
