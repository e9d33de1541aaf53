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
      {/*
        At the bottom, away from everything a toast must not hide: the header's account menu and
        mobile menu button at the top, and the page actions that sit at the top of the content
        (the playground's 'View History' is at the top right on desktop, where a top-right toast
        covered it). Bottom right on desktop; full width at the bottom on phones (sonner's own
        layout below 600 px).
      */}
      <Toaster richColors closeButton position="bottom-right" offset={{ bottom: 24, right: 24 }} mobileOffset={{ bottom: 16 }} />
    </QueryClientProvider>
  );
}
