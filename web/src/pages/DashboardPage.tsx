import { SignInRequired } from "./SignInRequired";

export default function DashboardPage() {
  return <SignInRequired title="Dashboard" heading="Sign in required" message="Authentication required to access decision history" />;
}
