import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { Link, Outlet, RouterProvider, createBrowserRouter } from "react-router";

const queryClient = new QueryClient({
  defaultOptions: {
    queries: { staleTime: 30_000, retry: 1, refetchOnWindowFocus: false },
  },
});

function Layout() {
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header>
        <nav aria-label="Main">
          <Link to="/">Smart Decision</Link>
        </nav>
      </header>
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
      <footer>
        <p>&copy; {new Date().getFullYear()} Smart Decision</p>
      </footer>
    </>
  );
}

function HomePage() {
  return (
    <>
      <title>Smart Decision</title>
      <h1>Smart Decision</h1>
      <p>Ask several AI models one question and get one ensemble decision.</p>
    </>
  );
}

function NotFoundPage() {
  return (
    <>
      <title>Page not found | Smart Decision</title>
      <h1>404</h1>
      <p>Oops! Page not found</p>
      <nav aria-label="Helpful links">
        <ul>
          <li>
            <Link to="/">Return to Home</Link>
          </li>
          <li>
            <Link to="/playground">Playground</Link>
          </li>
          <li>
            <Link to="/sd-api">API</Link>
          </li>
          <li>
            <Link to="/developers">Developers</Link>
          </li>
        </ul>
      </nav>
    </>
  );
}

const router = createBrowserRouter([
  {
    element: <Layout />,
    children: [
      { index: true, element: <HomePage /> },
      { path: "*", element: <NotFoundPage /> },
    ],
  },
]);

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  );
}
