import { Page } from "../layout/Page";

export default function ApplyJobPage() {
  return (
    <Page title="Apply for Position">
      <h1 className="text-3xl font-bold">Apply for Position</h1>
    </Page>
  );
}
