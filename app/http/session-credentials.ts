/** better-auth's session cookie, under any prefix (`__Secure-` on https) and cookie prefix. */
const SESSION_COOKIE = /(?:^|;\s*)(?:__Secure-)?[\w.-]*session_token=/;

/**
 * Whether a request says who it is (a session cookie or a bearer token): its answer may be about
 * that person, and must never be served to anyone else.
 */
export function carriesSession(cookie: string | null | undefined, authorization: string | null | undefined): boolean {
  return Boolean(authorization) || SESSION_COOKIE.test(cookie ?? "");
}
