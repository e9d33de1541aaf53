import { generateKeyPairSync, randomBytes } from "node:crypto";
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import Provider from "oidc-provider";

export interface TestAccount {
  sub: string;
  email: string;
  email_verified: boolean;
  name: string;
  picture: string;
}

export interface TestOidcOptions {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  account: TestAccount;
}

/**
 * A real OpenID Connect provider (oidc-provider) on loopback, with one confidential client and
 * one account. Its login and consent interactions are answered at once for that account (as a
 * user clicking through Google's pages would), so a test drives the whole code flow over HTTP
 * with `followAuthorization`.
 */
export class TestOidcProvider {
  /** Changes the account the next sign-in is for. */
  account: TestAccount;

  private constructor(
    private readonly server: Server,
    readonly issuer: string,
    account: TestAccount,
  ) {
    this.account = account;
  }

  static async start(options: TestOidcOptions): Promise<TestOidcProvider> {
    const server = createServer();
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const op = new TestOidcProvider(server, issuer, options.account);

    const signingKey = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ format: "jwk" });
    const provider = new Provider(issuer, {
      clients: [
        {
          client_id: options.clientId,
          client_secret: options.clientSecret,
          redirect_uris: [options.redirectUri],
          grant_types: ["authorization_code"],
          response_types: ["code"],
          token_endpoint_auth_method: "client_secret_post",
        },
      ],
      jwks: { keys: [{ ...signingKey, kid: "test-key", alg: "RS256", use: "sig" }] },
      cookies: { keys: [randomBytes(32).toString("hex")] },
      claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name", "picture"] },
      // Like Google: the ID token itself carries the scopes' claims.
      conformIdTokenClaims: false,
      features: { devInteractions: { enabled: false } },
      ttl: { AccessToken: 600, AuthorizationCode: 60, Grant: 600, IdToken: 600, Interaction: 600, Session: 600 },
      findAccount: (_ctx: unknown, sub: string) => ({
        accountId: sub,
        claims: () => ({ ...op.account, sub }),
      }),
    });
    const handle = provider.callback();
    server.on("request", (req, res) => {
      if (req.url?.startsWith("/interaction/")) {
        answerInteraction(provider, op, req, res).catch((error: unknown) => {
          res.statusCode = 500;
          res.end(String(error));
        });
        return;
      }
      handle(req, res);
    });
    return op;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

async function answerInteraction(provider: Provider, op: TestOidcProvider, req: Parameters<Provider["interactionDetails"]>[0], res: Parameters<Provider["interactionDetails"]>[1]) {
  const details = await provider.interactionDetails(req, res);
  if (details.prompt.name === "login") {
    await provider.interactionFinished(req, res, { login: { accountId: op.account.sub } }, { mergeWithLastSubmission: false });
    return;
  }
  const grant = details.grantId
    ? ((await provider.Grant.find(details.grantId)) ?? newGrant())
    : newGrant();
  function newGrant() {
    return new provider.Grant({ accountId: details.session!.accountId!, clientId: String(details.params.client_id) });
  }
  const missingScope = details.prompt.details.missingOIDCScope as string[] | undefined;
  const missingClaims = details.prompt.details.missingOIDCClaims as string[] | undefined;
  if (missingScope) grant.addOIDCScope(missingScope.join(" "));
  if (missingClaims) grant.addOIDCClaims(missingClaims);
  await provider.interactionFinished(req, res, { consent: { grantId: await grant.save() } }, { mergeWithLastSubmission: true });
}

/**
 * Follows an authorization URL as a browser would (keeping cookies, following redirects) until
 * the provider redirects to `redirectUri`; returns that final URL (with `code` and `state`).
 */
export async function followAuthorization(authorizationUrl: string, redirectUri: string): Promise<URL> {
  const jar = new Map<string, string>();
  let url = new URL(authorizationUrl);
  for (let hop = 0; hop < 20; hop++) {
    if (url.href.startsWith(redirectUri)) return url;
    const cookie = [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
    const response = await fetch(url, { redirect: "manual", headers: cookie ? { cookie } : {} });
    for (const header of response.headers.getSetCookie()) {
      const [pair = "", ...attributes] = header.split(";");
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attributes.some((a) => /^\s*expires=/i.test(a) && Date.parse(a.split("=")[1]!) <= Date.now()) || value === "";
      if (expired) jar.delete(name);
      else jar.set(name, value);
    }
    const location = response.headers.get("location");
    if (response.status < 300 || response.status >= 400 || !location) {
      throw new Error(`the provider answered ${response.status} at ${url.pathname}: ${(await response.text()).slice(0, 500)}`);
    }
    await response.arrayBuffer();
    url = new URL(location, url);
  }
  throw new Error("too many redirects");
}
