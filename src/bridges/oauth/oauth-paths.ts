// The OAuth endpoints answer every refusal in OAuth's own shape (RFC 6749 5.2, RFC 7591 3.2.2) or, for the
// authorization endpoint a browser shows, as its error page: never in the API's `{"error":{"code","message"}}`.
// Generic edge checks (sizes, text encoding) skip these paths or render through src/bridges/errors/oauth-error.ts.

/** The authorization server's endpoints: /oauth/authorize, /oauth/token, /oauth/register, /oauth/revoke. */
export const isOAuthPath = (path: string) => path.startsWith('/oauth/');

/** The one OAuth endpoint a browser shows: its refusals are an HTML page. */
export const OAUTH_PAGE_PATH = '/oauth/authorize';
