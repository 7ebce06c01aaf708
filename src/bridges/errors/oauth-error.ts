import { OAUTH_PAGE_PATH } from '../oauth/oauth-paths.ts';
import { renderAuthorizationError } from '../oauth/consent-page.ts';
import { failureHeaders, type AnswerContext, type Failure } from './failure.ts';

/** OAuth's error codes for what the HTTP layer refuses itself (RFC 6749 4.1.2.1 and 5.2). */
const oauthCode = (f: Failure) =>
  f.code === 'INTERNAL_ERROR'
    ? 'server_error'
    : f.code === 'SERVICE_BUSY'
      ? 'temporarily_unavailable'
      : f.code === 'RATE_LIMITED'
        ? 'too_many_requests'
        : 'invalid_request';

/**
 * A failure on an OAuth endpoint (too large, too long, unstorable text, anything thrown): `{"error",
 * "error_description"}` as OAuth clients parse it, or the authorization endpoint's error page a browser shows.
 */
export function oauthErrorResponse(
  path: string,
  f: Failure,
  a: AnswerContext,
  extra: Record<string, string> = {},
): Response {
  const headers = failureHeaders(f, a);
  headers.set('cache-control', 'no-store');
  for (const [k, v] of Object.entries(extra)) headers.set(k, v);
  if (path === OAUTH_PAGE_PATH) {
    headers.set('content-type', 'text/html; charset=UTF-8');
    headers.set('x-frame-options', 'DENY');
    headers.set('content-security-policy', "frame-ancestors 'none'");
    return new Response(renderAuthorizationError(f.message, oauthCode(f)), { status: f.status, headers });
  }
  headers.set('content-type', 'application/json');
  return new Response(JSON.stringify({ error: oauthCode(f), error_description: f.message }), {
    status: f.status,
    headers,
  });
}
