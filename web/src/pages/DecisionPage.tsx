import { SignInRequired } from "./SignInRequired";

export default function DecisionPage() {
  return <SignInRequired title="Decision" heading="Sign in required" message="Authentication required to view decision details" />;
}
