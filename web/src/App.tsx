import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { RouterProvider, createBrowserRouter } from "react-router";
import { SessionProvider } from "./auth/session-context";
import { SignInProvider } from "./auth/sign-in-context";
import { routes } from "./routes";
import { Toaster } from "./ui/toast";

const queryClient = new QueryClient({
  defaultOptions: { queries: { staleTime: 30_000, retry: 1, refetchOnWindowFocus: false } },
});

const router = createBrowserRouter(routes);

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <SessionProvider>
        <SignInProvider>
          <RouterProvider router={router} />
        </SignInProvider>
      </SessionProvider>
      {/* Below the sticky header (64 px), so a toast never covers the avatar menu or the mobile menu button. */}
      <Toaster richColors closeButton position="top-right" offset={{ top: 76 }} mobileOffset={{ top: 72 }} />
    </QueryClientProvider>
  );
}
