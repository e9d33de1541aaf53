import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { RouterProvider, createBrowserRouter } from "react-router";
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
      <SignInProvider>
        <RouterProvider router={router} />
      </SignInProvider>
      <Toaster richColors closeButton position="top-right" />
    </QueryClientProvider>
  );
}
