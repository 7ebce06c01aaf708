import { OAuthProblem } from './oauth-error.ts';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);
const FORBIDDEN_SCHEMES = new Set(['javascript:', 'data:', 'file:', 'vbscript:', 'blob:', 'about:']);

/**
 * Redirect URIs a client may register: https anywhere, http only on loopback (native apps, RFC 8252 7.3), or an
 * app's private-use scheme (RFC 8252 7.1); never fragments, and at most 10 of at most 2,000 characters.
 */
export function checkRedirectUris(uris: string[]): void {
  if (uris.length === 0 || uris.length > 10)
    throw new OAuthProblem('invalid_redirect_uri', 'Register 1 to 10 redirect_uris');
  for (const raw of uris) {
    let u: URL;
    try {
      u = new URL(raw);
    } catch {
      throw new OAuthProblem('invalid_redirect_uri', `Not an absolute URI: ${JSON.stringify(raw.slice(0, 100))}`);
    }
    // Control characters (NUL above all, which PostgreSQL cannot store) have no place in a URI.
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this finds
    if (/[\u0000-\u001f\u007f]/.test(raw))
      throw new OAuthProblem('invalid_redirect_uri', 'A redirect URI must not contain control characters');
    if (raw.length > 2000)
      throw new OAuthProblem('invalid_redirect_uri', 'A redirect URI is limited to 2,000 characters');
    if (u.hash || raw.includes('#'))
      throw new OAuthProblem('invalid_redirect_uri', 'A redirect URI must not have a fragment');
    if (FORBIDDEN_SCHEMES.has(u.protocol))
      throw new OAuthProblem('invalid_redirect_uri', `The ${u.protocol} scheme is not allowed`);
    if (u.protocol === 'http:' && !LOOPBACK.has(u.hostname)) {
      throw new OAuthProblem(
        'invalid_redirect_uri',
        'http redirect URIs are allowed on loopback only (localhost, 127.0.0.1, [::1]); use https',
      );
    }
  }
}
