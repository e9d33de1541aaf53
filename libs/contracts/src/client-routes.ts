/**
 * The web app's pages (the specification's route table), as react-router paths. The
 * gateway answers these with index.html and 200, and any other path with index.html (which renders
 * the not-found page) and 404, so crawlers and monitors see a real 404; the web app's router
 * should declare exactly these.
 */
export const CLIENT_ROUTES = [
  "/",
  "/privacy",
  "/terms",
  "/auth/callback",
  "/console",
  "/playground",
  "/developers",
  "/sd-api",
  "/careers",
  "/apply-job",
  "/dashboard",
  "/decision/:id",
  "/admin",
  "/settings",
  "/contact",
  /** A decision shared by its owner (read-only, public, never indexed). */
  "/shared/:token",
] as const;
export type ClientRoute = (typeof CLIENT_ROUTES)[number];

/** Whether a URL path (no query) is one of the web app's pages; `:param` matches one segment, a trailing slash is allowed. */
export function isClientRoute(path: string): boolean {
  const segments = (p: string) => p.split("/").filter(Boolean);
  const actual = segments(path);
  return CLIENT_ROUTES.some((route) => {
    const pattern = segments(route);
    return pattern.length === actual.length && pattern.every((part, i) => part.startsWith(":") || part === actual[i]);
  });
}
