import { createContext, useContext, useMemo, useState, type ReactNode } from "react";
import { SignInDialog } from "./SignInDialog";

interface SignInContextValue {
  openSignIn: () => void;
}

const SignInContext = createContext<SignInContextValue | null>(null);

/** Lets any page open the one sign-in dialog (header buttons, landing, console, dashboard...). */
export function SignInProvider({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const value = useMemo(() => ({ openSignIn: () => setOpen(true) }), []);
  return (
    <SignInContext.Provider value={value}>
      {children}
      <SignInDialog open={open} onOpenChange={setOpen} />
    </SignInContext.Provider>
  );
}

export function useSignIn(): SignInContextValue {
  const value = useContext(SignInContext);
  if (!value) throw new Error("useSignIn must be used inside SignInProvider");
  return value;
}
