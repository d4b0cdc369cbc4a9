import { Events, OAuth2Server, type MutableRedirectUri, type MutableResponse, type MutableToken } from "oauth2-mock-server";
import type { IncomingMessage } from "node:http";

/** Who is signed in at the fake Google when the browser arrives at its authorization page. */
export interface OidcIdentity {
  sub: string;
  email: string;
  name?: string;
  emailVerified?: boolean;
}

export interface FakeOidcProvider {
  issuer: string;
  /** For GOOGLE_DISCOVERY_URL. */
  discoveryUrl: string;
  /** The identity the next authorizations sign in as; `undefined` makes the user decline (access_denied). */
  signInAs(identity: OidcIdentity | undefined): void;
  /** How many times the token endpoint issued tokens. */
  readonly tokensIssued: number;
  stop(): Promise<void>;
}

function jwtSubject(authorization: string | undefined): string | undefined {
  const payload = authorization?.replace(/^Bearer /i, "").split(".")[1];
  if (!payload) return undefined;
  const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as { sub?: string };
  return claims.sub;
}

/**
 * A real OpenID Connect provider on loopback (oauth2-mock-server: discovery, JWKS, authorization
 * code with PKCE and nonce, RS256-signed ID tokens) standing in for Google. Every authorization
 * is granted at once for the identity set with `signInAs`, like a Google user already signed in.
 */
export async function startOidcProvider(): Promise<FakeOidcProvider> {
  const server = new OAuth2Server();
  await server.issuer.keys.generate("RS256");
  await server.start(0, "127.0.0.1");
  const issuer = `http://127.0.0.1:${server.address().port}`;
  server.issuer.url = issuer;

  let current: OidcIdentity | undefined;
  let tokensIssued = 0;
  const identityByCode = new Map<string, OidcIdentity>();
  const identityBySubject = new Map<string, OidcIdentity>();

  const claimsOf = (identity: OidcIdentity) => ({
    sub: identity.sub,
    email: identity.email,
    email_verified: identity.emailVerified ?? true,
    name: identity.name ?? identity.email.split("@")[0],
  });

  server.service.on(Events.BeforeAuthorizeRedirect, ({ url }: MutableRedirectUri) => {
    const code = url.searchParams.get("code");
    if (!code) return;
    if (!current) {
      url.searchParams.delete("code");
      url.searchParams.set("error", "access_denied");
      return;
    }
    identityByCode.set(code, current);
  });

  server.service.on(Events.BeforeTokenSigning, (token: MutableToken, request: IncomingMessage & { body?: { code?: unknown } }) => {
    const code = request.body?.code;
    const identity = typeof code === "string" ? identityByCode.get(code) : undefined;
    if (!identity) return;
    Object.assign(token.payload, claimsOf(identity));
    identityBySubject.set(identity.sub, identity);
  });

  server.service.on(Events.BeforeResponse, (response: MutableResponse) => {
    if (response.statusCode === 200) tokensIssued += 1;
  });

  server.service.on(Events.BeforeUserinfo, (response: MutableResponse, request: IncomingMessage) => {
    const subject = jwtSubject(request.headers.authorization);
    const identity = subject ? identityBySubject.get(subject) : undefined;
    if (identity) response.body = claimsOf(identity);
  });

  return {
    issuer,
    discoveryUrl: `${issuer}/.well-known/openid-configuration`,
    signInAs(identity) {
      current = identity;
    },
    get tokensIssued() {
      return tokensIssued;
    },
    stop: () => server.stop(),
  };
}
