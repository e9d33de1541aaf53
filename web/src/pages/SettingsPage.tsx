import { SignInRequired } from "./SignInRequired";

export default function SettingsPage() {
  return <SignInRequired title="Settings" heading="Authentication Required" message="Please sign in to access your settings." />;
}
