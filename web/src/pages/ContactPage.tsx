import { Page } from "../layout/Page";

export default function ContactPage() {
  return (
    <Page title="Contact">
      <h1 className="text-3xl font-bold">Contact</h1>
    </Page>
  );
}
