import type { CheckedAuthorization } from '../../domain/oauth/authorization.ts';
import { SCOPE_DESCRIPTIONS } from '../../domain/oauth/authorization.ts';

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)} · Subtext</title>
<link rel="stylesheet" href="/assets/app.css">
</head>
<body>
<div id="app"><main id="main" class="narrow">${body}</main></div>
</body>
</html>`;
}

/** Names the application, where it will be sent back to, and what it may do; Allow and Deny post back here. */
export function renderConsentPage(
  a: CheckedAuthorization,
  account: { email: string; csrfToken: string },
  params: Record<string, string>,
): string {
  const hidden = Object.entries(params)
    .map(([k, v]) => `<input type="hidden" name="${esc(k)}" value="${esc(v)}">`)
    .join('');
  const scopes = a.scope
    .split(' ')
    .map((s) => `<li>${esc(SCOPE_DESCRIPTIONS[s] ?? s)}</li>`)
    .join('');
  let to: string;
  try {
    // Only https shows as a bare host: any other scheme (a private-use one may name any web host) shows with it.
    const u = new URL(a.redirectUri);
    to = !u.host ? a.redirectUri : u.protocol === 'https:' ? u.host : `${u.protocol}//${u.host}`;
  } catch {
    to = a.redirectUri;
  }
  // A client named by its metadata document is vouched for by that document's host only: show it (the draft's 6.3).
  const vouched = a.client.metadata.client_id_metadata_document
    ? `<p class="muted">This application describes itself at <strong id="client-host">${esc(new URL(a.client.id).host)}</strong>.</p>\n`
    : '';
  return page(
    `Allow ${a.client.name}?`,
    `<section class="card">
<h1>Allow <strong id="client-name">${esc(a.client.name)}</strong> to use Subtext as you?</h1>
${vouched}<p>Signed in as <strong>${esc(account.email)}</strong>. The application asks to:</p>
<ul id="scopes">${scopes}</ul>
<p>Calls it makes count against your rate limit and spend your credits, like an API key. You can revoke its
access at any time on the <a href="/keys">API keys</a> page.</p>
<p class="muted">After you answer you will be sent back to <strong>${esc(to)}</strong>.</p>
<form method="post" action="/oauth/authorize">
${hidden}<input type="hidden" name="csrf" value="${esc(account.csrfToken)}">
<button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny" class="secondary">Deny</button>
</form>
</section>`,
  );
}

/**
 * Shown instead of redirecting when the request cannot be trusted with a redirect (RFC 6749 4.1.2.1, RFC 9700
 * 4.11.2): the OAuth error code the redirect would have carried, and what is wrong.
 */
export function renderAuthorizationError(message: string, code = 'invalid_request'): string {
  return page(
    'Authorization refused',
    `<section class="card"><h1>Authorization refused</h1><p id="error">${esc(message)}</p>
<p class="muted">Error code: <code id="error-code">${esc(code)}</code>. Return to the application and start again.</p></section>`,
  );
}
