import { Page } from "../layout/Page";

export default function PrivacyPage() {
  return (
    <Page title="Privacy Policy">
      <h1 className="text-3xl font-bold">Privacy Policy</h1>
    </Page>
  );
}
