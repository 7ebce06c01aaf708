import type { Context as HonoContext, Hono } from 'hono';
import { cors } from 'hono/cors';
import { OAuthClientMetadataSchema } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { Deps } from '../../deps.ts';
import { csrfMatches, findSession } from '../../domain/accounts/sessions.ts';
import {
  checkAuthorization,
  exchangeCode,
  issueCode,
  MCP_SCOPE,
  redirectTrusted,
  SCOPES,
  refreshTokens,
  registerClient,
  revokeToken,
  type AuthorizationParams,
} from '../../domain/oauth/authorization.ts';
import {
  InputProblem,
  rawQuery,
  readForm,
  readFormLeniently,
  readJson,
  readParamsLeniently,
  type ReadParams,
} from './oauth-input.ts';
import { OAuthProblem, UnredirectableProblem } from '../../domain/oauth/oauth-error.ts';
import { readSessionToken } from '../../router/session-cookie.ts';
import { countAttempt } from '../../domain/accounts/sign-in-throttle.ts';
import { isServiceError } from '../../domain/errors.ts';
import { clientIp } from '../client-ip.ts';
import { renderAuthorizationError, renderConsentPage } from './consent-page.ts';
import { mcpResource } from '../../router/authenticate-request.ts';
import type { HttpEnv } from '../http-env.ts';

export const resourceMetadataUrl = (deps: Deps) => `${deps.publicUrl}/.well-known/oauth-protected-resource/mcp`;

/** Dynamic registrations allowed per client address in each 15-minute window. */
const REGISTRATIONS_PER_IP = 30;
/** Client metadata documents fetched (not cached) for one client address in each 15-minute window. */
const DOCUMENT_FETCHES_PER_IP = 30;

const AUTH_PARAMS = [
  'response_type',
  'client_id',
  'redirect_uri',
  'code_challenge',
  'code_challenge_method',
  'scope',
  'state',
  'resource',
] as const;

/** The longest authorization parameter kept (a registered redirect URI is at most this long too). */
const MAX_PARAM_LENGTH = 2000;

/** OAuth answers in its own error shape (RFC 6749 5.2), which OAuth clients parse; never cached. */
function oauthError(c: HonoContext, p: OAuthProblem) {
  c.header('cache-control', 'no-store');
  return c.json({ error: p.code, error_description: p.message }, p.status as 400);
}

function pickParams(source: Record<string, string>): AuthorizationParams {
  const out: Record<string, string> = {};
  for (const k of AUTH_PARAMS) {
    const v = source[k];
    if (v !== undefined && v.length <= MAX_PARAM_LENGTH) out[k] = v;
  }
  return out;
}

/** Which client and where to: a request whose own client_id or redirect_uri cannot be read has nowhere to go back. */
const UNREDIRECTABLE_PARAMS = new Set<string | undefined>([undefined, 'client_id', 'redirect_uri']);

/**
 * An authorization request's parameters as read strictly: a refusal of a parameter other than client_id and
 * redirect_uri is kept as `problem` (answered like any failing check: the page, or a redirect to a trusted client);
 * one of those two (or an unreadable name, or a body that is no form) is unredirectable.
 */
async function readAuthorization(read: () => Promise<ReadParams>): Promise<ReadParams> {
  let input: ReadParams;
  try {
    input = await read();
  } catch (err) {
    if (err instanceof InputProblem) throw new UnredirectableProblem(err.message);
    throw err;
  }
  // A value too long to keep is refused, never dropped: a dropped redirect_uri would fall back to the registered one
  // as if omitted, a dropped state would be missing from the redirect.
  for (const k of AUTH_PARAMS) {
    if ((input.params[k]?.length ?? 0) > MAX_PARAM_LENGTH)
      input.problem ??= new InputProblem(`${k} is limited to ${MAX_PARAM_LENGTH} characters`, k);
  }
  if (input.problem && UNREDIRECTABLE_PARAMS.has(input.problem.param))
    throw new UnredirectableProblem(input.problem.message);
  return input;
}

/**
 * Subtext as its own authorization server for /mcp: RFC 9728 resource metadata, RFC 8414 server metadata, RFC 7591
 * registration, authorization code + PKCE (S256 only) with the website's sign-in and a consent page, RFC 8707
 * resource-bound tokens, rotating refresh tokens, RFC 7009 revocation.
 */
export function mountOAuth(app: Hono<HttpEnv>, deps: Deps) {
  const p = deps.oauth;
  // Metadata, registration, token and revocation carry no cookies: any origin may call them (browser-based clients).
  const open = cors({
    origin: '*',
    allowMethods: ['GET', 'POST', 'OPTIONS'],
    allowHeaders: ['content-type', 'authorization', 'mcp-protocol-version'],
  });
  for (const path of ['/.well-known/*', '/oauth/register', '/oauth/token', '/oauth/revoke']) app.use(path, open);

  mountMetadata(app, deps);

  app.post('/oauth/register', (c) => register(c, deps));

  app.get('/oauth/authorize', (c) => authorize(c, deps, async () => readParamsLeniently(rawQuery(c.req.url))));
  app.post('/oauth/authorize', (c) => authorize(c, deps, () => readFormLeniently(c.req.raw), true));

  app.post('/oauth/token', (c) => token(c, p));

  app.post('/oauth/revoke', async (c) => {
    try {
      const form = await readForm(c.req.raw);
      await revokeToken(p, form.token);
    } catch (err) {
      if (err instanceof OAuthProblem) return oauthError(c, err);
      throw err;
    }
    c.header('cache-control', 'no-store');
    return c.body(null, 200);
  });
}

/** RFC 9728 resource metadata (for /mcp) and RFC 8414 server metadata. */
function mountMetadata(app: Hono<HttpEnv>, deps: Deps) {
  const resourceMetadata = (c: HonoContext) =>
    c.json({
      resource: mcpResource(deps),
      authorization_servers: [deps.publicUrl],
      scopes_supported: [MCP_SCOPE],
      bearer_methods_supported: ['header'],
      resource_name: 'Subtext MCP',
      resource_documentation: `${deps.publicUrl}/docs`,
    });
  app.get('/.well-known/oauth-protected-resource', resourceMetadata);
  app.get('/.well-known/oauth-protected-resource/mcp', resourceMetadata);
  app.get('/.well-known/oauth-authorization-server', (c) =>
    c.json({
      issuer: deps.publicUrl,
      authorization_endpoint: `${deps.publicUrl}/oauth/authorize`,
      token_endpoint: `${deps.publicUrl}/oauth/token`,
      registration_endpoint: `${deps.publicUrl}/oauth/register`,
      revocation_endpoint: `${deps.publicUrl}/oauth/revoke`,
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none'],
      revocation_endpoint_auth_methods_supported: ['none'],
      scopes_supported: SCOPES,
      authorization_response_iss_parameter_supported: true,
      client_id_metadata_document_supported: true,
    }),
  );
}

/** RFC 7591 dynamic registration, bounded per client address. */
async function register(c: HonoContext, deps: Deps) {
  // Registration is open to anyone: bounded per client address, counted in PostgreSQL like sign-in attempts.
  try {
    await countAttempt(deps, [
      { subject: `oauth-register:ip:${clientIp(c, deps.config.TRUST_PROXY)}`, limit: REGISTRATIONS_PER_IP },
    ]);
  } catch (err) {
    if (!isServiceError(err) || err.code !== 'RATE_LIMITED') throw err;
    c.header('retry-after', String(err.retryAfter ?? 60));
    return oauthError(
      c,
      new OAuthProblem(
        'too_many_requests',
        `At most ${REGISTRATIONS_PER_IP} client registrations per 15 minutes from one address`,
        429,
      ),
    );
  }
  let body: unknown;
  try {
    body = await readJson(c.req.raw);
  } catch (err) {
    if (err instanceof OAuthProblem) return oauthError(c, err);
    throw err;
  }
  const parsed = OAuthClientMetadataSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return oauthError(
      c,
      new OAuthProblem(
        'invalid_client_metadata',
        issue ? `${issue.path.join('.') || 'body'}: ${issue.message}` : 'Invalid client metadata',
      ),
    );
  }
  try {
    // The SDK's schema predates application_type (SEP-837) and drops it: read it from the body, as sent (absent is
    // inferred; a present value of any other kind is refused).
    const given = body as Record<string, unknown>;
    const registered = await registerClient(deps.oauth, {
      ...parsed.data,
      application_type: Object.hasOwn(given, 'application_type') ? given.application_type : undefined,
    });
    c.header('cache-control', 'no-store');
    return c.json(registered, 201);
  } catch (err) {
    if (err instanceof OAuthProblem) return oauthError(c, err);
    throw err;
  }
}

/** Anyone can make us fetch a document URL by naming it: bounded per client address, as registrations are. */
async function countDocumentFetch(c: HonoContext, deps: Deps) {
  await countAttempt(deps, [
    { subject: `oauth-document:ip:${clientIp(c, deps.config.TRUST_PROXY)}`, limit: DOCUMENT_FETCHES_PER_IP },
  ]);
}

/** The request read and checked, or the page refusing it (no client to go back to, or too many document fetches). */
async function readAndCheck(c: HonoContext, deps: Deps, read: () => Promise<ReadParams>) {
  try {
    const input = await readAuthorization(read);
    const params = pickParams(input.params);
    const checked = await checkAuthorization(deps.oauth, params, () => countDocumentFetch(c, deps));
    if (input.problem) checked.problem = input.problem;
    return { form: input.params, params, checked };
  } catch (err) {
    if (err instanceof UnredirectableProblem) return c.html(renderAuthorizationError(err.message, err.code), 400);
    if (isServiceError(err) && err.code === 'RATE_LIMITED') {
      c.header('retry-after', String(err.retryAfter ?? 60));
      return c.html(renderAuthorizationError(err.message, 'temporarily_unavailable'), 429);
    }
    throw err;
  }
}

/** The authorization endpoint: sign-in, the consent page, and the redirect back with a code or an error. */
async function authorize(c: HonoContext, deps: Deps, read: () => Promise<ReadParams>, decided = false) {
  const p = deps.oauth;
  // The consent page must not be framed (clickjacking the Allow button).
  c.header('x-frame-options', 'DENY');
  c.header('content-security-policy', "frame-ancestors 'none'");
  c.header('cache-control', 'no-store');
  const request = await readAndCheck(c, deps, read);
  if (request instanceof Response) return request;
  const { form, params, checked } = request;
  const back = (q: Record<string, string | undefined>) => {
    const u = new URL(checked.redirectUri);
    for (const [k, v] of Object.entries({ ...q, state: checked.state, iss: deps.publicUrl }))
      if (v !== undefined) u.searchParams.set(k, v);
    return c.redirect(u.toString(), 302);
  };
  const session = await findSession(deps, readSessionToken(c.req.raw.headers));
  if (checked.problem) {
    // RFC 9700 4.11.2: an error goes back by redirect only to a client this user approved; anyone else's redirect
    // URI is a stranger's page, so the user reads the error here.
    const { code, message } = checked.problem;
    if (await redirectTrusted(p, checked.client.id, session?.accountId))
      return back({ error: code, error_description: message });
    return c.html(renderAuthorizationError(message, code), 400);
  }

  if (!session) {
    const here = `/oauth/authorize?${new URLSearchParams(params as Record<string, string>)}`;
    return c.redirect(`/sign-in?next=${encodeURIComponent(here)}`, 302);
  }
  if (!decided) return c.html(renderConsentPage(checked, session, params as Record<string, string>));

  // The form carries the session's CSRF token; a cross-site post (or one from a stale page) is refused.
  const origin = c.req.header('origin');
  if (
    !csrfMatches(session, form.csrf ?? null) ||
    (origin && origin !== new URL(deps.publicUrl).origin && origin !== new URL(c.req.url).origin)
  ) {
    return c.html(
      renderAuthorizationError(
        'The form was stale or came from another site; start again from the application.',
        'access_denied',
      ),
      403,
    );
  }
  // The user saw the consent page naming where they will be sent: their answer goes back there either way.
  if (form.decision !== 'allow')
    return back({ error: 'access_denied', error_description: 'The user denied the request' });
  return back({ code: await issueCode(p, checked, session.accountId) });
}

/** The token endpoint: a code exchanged (with its PKCE verifier), or a refresh token rotated. */
async function token(c: HonoContext, p: Deps['oauth']) {
  try {
    const form = await readForm(c.req.raw);
    const s = (k: string) => form[k];
    const grantType = s('grant_type');
    const tokens =
      grantType === 'authorization_code'
        ? await exchangeCode(p, {
            code: s('code'),
            code_verifier: s('code_verifier'),
            client_id: s('client_id'),
            redirect_uri: s('redirect_uri'),
            resource: s('resource'),
          })
        : grantType === 'refresh_token'
          ? await refreshTokens(p, {
              refresh_token: s('refresh_token'),
              client_id: s('client_id'),
              resource: s('resource'),
            })
          : (() => {
              throw new OAuthProblem(
                'unsupported_grant_type',
                'grant_type must be authorization_code or refresh_token',
              );
            })();
    c.header('cache-control', 'no-store');
    return c.json(tokens);
  } catch (err) {
    if (err instanceof OAuthProblem) return oauthError(c, err);
    throw err;
  }
}
