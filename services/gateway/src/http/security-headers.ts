import type { RequestHandler } from "express";
import helmet from "helmet";

const directives = { "img-src": ["'self'", "data:", "blob:"] };

/**
 * Helmet's headers, with HSTS and CSP `upgrade-insecure-requests` only on requests served over
 * https (`req.secure`, which honours TRUST_PROXY's X-Forwarded-Proto). On plain http — a
 * self-hosted site opened at a LAN address — the upgrade would make the browser fetch every
 * script and style over https, which nothing answers: a blank page. HSTS over http is ignored by
 * browsers anyway, and would pin the name to https once the site is ever opened over https.
 */
export function securityHeaders(): RequestHandler {
  const overHttps = helmet({ contentSecurityPolicy: { directives } });
  const overHttp = helmet({
    contentSecurityPolicy: { directives: { ...directives, "upgrade-insecure-requests": null } },
    strictTransportSecurity: false,
  });
  return (req, res, next) => (req.secure ? overHttps : overHttp)(req, res, next);
}
