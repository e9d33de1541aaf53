import { SignInRequired } from "./SignInRequired";

export default function AdminPage() {
  return <SignInRequired title="Admin" heading="Sign in required" message="Please sign in with an admin account to view the dashboard." />;
}
