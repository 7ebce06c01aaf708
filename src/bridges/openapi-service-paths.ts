// The endpoints outside /api/v1, for the OpenAPI document: OAuth for /mcp (src/bridges/oauth/) and the operations
// endpoints (src/bridges/ops-routes.ts). Each path names its own server (the service's origin), and its own
// security: none, except /metrics. OAuth answers errors in OAuth's shape (RFC 6749 5.2), the rest in ours.
import { MCP_SCOPE } from '../domain/oauth/authorization.ts';

const json = (schema: unknown) => ({ 'application/json': { schema } });
const form = (schema: unknown) => ({ 'application/x-www-form-urlencoded': { schema } });
const html = { 'text/html': { schema: { type: 'string' } } };
const text = (s: string) => ({ type: 'string', description: s });
const requestId = { 'x-request-id': { $ref: '#/components/headers/x-request-id' } };
const ours = (description: string) => ({
  description,
  headers: requestId,
  content: json({ $ref: '#/components/schemas/Error' }),
});
const oauthError = (description: string, headers: Record<string, unknown> = {}) => ({
  description,
  headers: { ...requestId, ...headers },
  content: json({ $ref: '#/components/schemas/OAuthError' }),
});
const answer = (description: string, extra: Record<string, unknown> = {}) => ({
  description,
  headers: requestId,
  ...extra,
});

/** A URL over 16 KiB is refused before any route, on every path. */
const URI_TOO_LONG = { '414': ours('`URI_TOO_LONG`: the request URL is over 16 KiB') };
/** A long URL, or a body over MAX_BODY_BYTES, on an OAuth endpoint: refused before the route, in OAuth's shape. */
const OAUTH_BODY_LIMITS = {
  '414': oauthError('`invalid_request`: the request URL is over 16 KiB'),
  '413': oauthError('`invalid_request`: the body is over `MAX_BODY_BYTES`'),
};

const RESOURCE_METADATA = {
  type: 'object',
  required: ['resource', 'authorization_servers'],
  properties: {
    resource: text('The protected resource: `<PUBLIC_URL>/mcp`; access tokens are issued for it alone'),
    authorization_servers: { type: 'array', items: { type: 'string' }, description: 'This service (`PUBLIC_URL`)' },
    scopes_supported: { type: 'array', items: { type: 'string', enum: [MCP_SCOPE] } },
    bearer_methods_supported: { type: 'array', items: { type: 'string', enum: ['header'] } },
    resource_name: { type: 'string' },
    resource_documentation: { type: 'string' },
  },
};

const AUTHORIZATION_PARAMS = [
  ['response_type', 'Must be `code`', true],
  [
    'client_id',
    'From registration, or the https URL of the client’s metadata document (Client ID Metadata Documents), which this server fetches',
    true,
  ],
  ['redirect_uri', 'One the client registered (optional when it registered exactly one)', false],
  ['code_challenge', 'PKCE: base64url of the SHA-256 of the verifier (43 characters)', true],
  ['code_challenge_method', 'Must be `S256`', true],
  ['scope', `\`${MCP_SCOPE}\` (the only scope; the default)`, false],
  ['state', 'Returned unchanged on the redirect', false],
  ['resource', 'RFC 8707: `<PUBLIC_URL>/mcp` (the only resource)', false],
] as const;

const AUTHORIZE_REDIRECT = answer(
  'A redirect: to `redirect_uri` with `code`, `state` and `iss` (allowed) or `error` and `error_description` (denied, or a bad request the client can be told about); or, not signed in, to the website’s `/sign-in`, which comes back here.',
  { headers: { ...requestId, Location: { schema: { type: 'string' }, description: 'Where the browser goes next' } } },
);

const resourceMetadata = (operationId: string, summary: string) => ({
  get: {
    operationId,
    tags: ['oauth'],
    summary,
    description:
      'RFC 9728 protected-resource metadata for `/mcp`: where an MCP client learns which authorization server signs users in. `/mcp` names it in the `resource_metadata` parameter of its 401 `WWW-Authenticate` challenge.',
    security: [],
    responses: { '200': answer('The metadata', { content: json(RESOURCE_METADATA) }), ...URI_TOO_LONG },
  },
});

/** The endpoints outside /api/v1 (OAuth and operations), each path's operations without its `servers`. */
const SERVICE_OPERATIONS = {
  '/.well-known/oauth-protected-resource': resourceMetadata(
    'oauth-protected-resource',
    'OAuth protected-resource metadata',
  ),
  '/.well-known/oauth-protected-resource/mcp': resourceMetadata(
    'oauth-protected-resource-mcp',
    'OAuth protected-resource metadata of /mcp',
  ),
  '/.well-known/oauth-authorization-server': {
    get: {
      operationId: 'oauth-authorization-server',
      tags: ['oauth'],
      summary: 'OAuth authorization-server metadata',
      description:
        'RFC 8414 metadata: the endpoints below, authorization code with PKCE `S256` only, public clients (`none`), the `mcp` scope.',
      security: [],
      responses: {
        '200': answer('The metadata', {
          content: json({
            type: 'object',
            required: ['issuer', 'authorization_endpoint', 'token_endpoint'],
            properties: Object.fromEntries(
              [
                'issuer',
                'authorization_endpoint',
                'token_endpoint',
                'registration_endpoint',
                'revocation_endpoint',
              ].map((k) => [k, { type: 'string' }]),
            ),
            additionalProperties: true,
          }),
        }),
        ...URI_TOO_LONG,
      },
    },
  },
  '/oauth/register': {
    post: {
      operationId: 'oauth-register',
      tags: ['oauth'],
      summary: 'Register an OAuth client',
      description:
        'RFC 7591 dynamic registration, kept for clients that cannot publish a Client ID Metadata Document (the preferred way: name the document’s https URL as `client_id`, no registration needed). Public clients only: `token_endpoint_auth_method` is always `none` (PKCE protects the code). `application_type` (MCP SEP-837): `web` clients are sent back to https redirect URIs only; `native` ones may also use http on loopback or their own scheme; left out, it is inferred from the redirect URIs (all https: `web`, else `native`) and answered with `application_type_inferred: true`. A body that is not valid UTF-8 or holds a lone surrogate is `invalid_request`. Redirect URIs must be https, http on loopback, or an application’s own scheme, without fragments, at most 10. At most 30 registrations per client address every 15 minutes.',
      security: [],
      requestBody: {
        required: true,
        content: json({
          type: 'object',
          required: ['redirect_uris', 'application_type'],
          properties: {
            redirect_uris: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 10 },
            application_type: { type: 'string', enum: ['web', 'native'] },
            client_name: { type: 'string' },
            client_uri: { type: 'string' },
            grant_types: { type: 'array', items: { type: 'string', enum: ['authorization_code', 'refresh_token'] } },
            response_types: { type: 'array', items: { type: 'string', enum: ['code'] } },
            token_endpoint_auth_method: { type: 'string' },
            scope: { type: 'string' },
          },
        }),
      },
      responses: {
        '201': answer('Registered: the client’s metadata with its `client_id`', {
          content: json({
            type: 'object',
            required: ['client_id', 'redirect_uris'],
            properties: {
              client_id: { type: 'string' },
              client_id_issued_at: { type: 'integer' },
              redirect_uris: { type: 'array', items: { type: 'string' } },
            },
            additionalProperties: true,
          }),
        }),
        '400': oauthError('`invalid_client_metadata` or `invalid_redirect_uri`'),
        '429': oauthError('`too_many_requests`: too many registrations from this address', {
          'Retry-After': { $ref: '#/components/headers/Retry-After' },
        }),
        ...OAUTH_BODY_LIMITS,
      },
    },
  },
  '/oauth/authorize': {
    get: {
      operationId: 'oauth-authorize',
      tags: ['oauth'],
      summary: 'Start an authorization (browser)',
      description:
        'Authorization code with PKCE (`S256` only). A `client_id` that is an https URL is a Client ID Metadata Document: fetched from public addresses only, without redirects, at most 5 KB, in 5 s, kept as its `Cache-Control` allows (1 minute to 1 day; 1 hour without one); its `client_id` must equal the URL and its `redirect_uris` bind the request as a registration’s do; the consent page shows the document’s host. At most 30 documents fetched per client address every 15 minutes (then a 429 page). Signed in to the website: a consent page naming the application, where it will return and what it may do, with Allow and Deny; the page posts the answer back to this path as a form carrying the session’s CSRF token (a stale form, or one from another site, is refused with 403) and the browser is redirected as below. An unknown `client_id` or a `redirect_uri` the client did not register is refused on a page, never redirected. Any other failing check (wrong `response_type`, no PKCE, another `resource`, a repeated parameter, a NUL or invalid UTF-8) is redirected with `error=` only to a client the signed-in user approved (a live grant; RFC 9700 4.11.2); for any other client it is the same 400 page, naming the OAuth error code.',
      security: [],
      parameters: AUTHORIZATION_PARAMS.map(([name, description, required]) => ({
        name,
        in: 'query',
        required,
        description,
        schema: { type: 'string' },
      })),
      responses: {
        '200': answer('The consent page', { content: html }),
        '302': AUTHORIZE_REDIRECT,
        '400': answer(
          'A page saying why (and the OAuth error code): unknown client, an unusable client metadata document, an unregistered redirect URI, or a failing check for a client the user has not approved',
          {
            content: html,
          },
        ),
        '429': answer('Too many client metadata documents fetched for this address; Retry-After says when to retry', {
          content: html,
        }),
        '414': answer('The error page: the request URL is over 16 KiB', { content: html }),
      },
    },
  },
  '/oauth/token': {
    post: {
      operationId: 'oauth-token',
      tags: ['oauth'],
      summary: 'Exchange a code, or refresh',
      description:
        '`authorization_code`: `code` (single use, 60 s), `code_verifier`, `client_id`, `redirect_uri` (when the authorization request carried one) and optional `resource`; a refused exchange leaves the code usable, and a code used twice revokes what it gave. `refresh_token`: `refresh_token`, `client_id` and optional `resource`; checked in full before the token rotates (a refused refresh leaves it valid); refresh tokens rotate on every use, and a used one presented again revokes the grant. Each parameter at most once (RFC 6749 3.2); a NUL or invalid UTF-8 is `invalid_request`. Access tokens are JWTs for `<PUBLIC_URL>/mcp` only, living `OAUTH_ACCESS_TOKEN_TTL_SECONDS`.',
      security: [],
      requestBody: {
        required: true,
        content: form({
          type: 'object',
          required: ['grant_type', 'client_id'],
          properties: {
            grant_type: { type: 'string', enum: ['authorization_code', 'refresh_token'] },
            code: { type: 'string' },
            code_verifier: { type: 'string', minLength: 43, maxLength: 128 },
            client_id: { type: 'string' },
            redirect_uri: { type: 'string' },
            refresh_token: { type: 'string' },
            resource: { type: 'string' },
          },
        }),
      },
      responses: {
        '200': answer('The tokens', {
          content: json({
            type: 'object',
            required: ['access_token', 'token_type', 'expires_in', 'refresh_token', 'scope'],
            properties: {
              access_token: { type: 'string' },
              token_type: { type: 'string', enum: ['Bearer'] },
              expires_in: { type: 'integer', description: 'Seconds' },
              refresh_token: { type: 'string', description: '`srt_...`; rotates on every use' },
              scope: { type: 'string', enum: [MCP_SCOPE] },
            },
          }),
        }),
        '400': oauthError('`invalid_request`, `invalid_grant`, `invalid_target`, `unsupported_grant_type`'),
        ...OAUTH_BODY_LIMITS,
      },
    },
  },
  '/oauth/revoke': {
    post: {
      operationId: 'oauth-revoke',
      tags: ['oauth'],
      summary: 'Revoke a token',
      description:
        'RFC 7009: a refresh token or an access token; either revokes the whole grant, effective on the next request. Unknown tokens are answered the same way.',
      security: [],
      requestBody: {
        required: true,
        content: form({
          type: 'object',
          required: ['token'],
          properties: { token: { type: 'string' }, token_type_hint: { type: 'string' } },
        }),
      },
      responses: {
        '200': answer('Revoked (or nothing to revoke)'),
        '400': oauthError('`invalid_request`: not a form, a repeated parameter, a NUL or invalid UTF-8'),
        ...OAUTH_BODY_LIMITS,
      },
    },
  },
  '/healthz': {
    get: {
      operationId: 'healthz',
      tags: ['operations'],
      summary: 'Liveness',
      description: 'The process answers: restart it when this fails. Also on `METRICS_PORT`.',
      security: [],
      responses: {
        '200': answer('Alive', {
          content: json({
            type: 'object',
            required: ['status'],
            properties: { status: { type: 'string', enum: ['ok'] } },
          }),
        }),
        ...URI_TOO_LONG,
      },
    },
  },
  '/readyz': {
    get: {
      operationId: 'readyz',
      tags: ['operations'],
      summary: 'Readiness',
      description:
        'Ready to serve: the database answers and has every migration this build ships, the job queue runs, and the blob store (S3) is usable. A draining instance (after SIGTERM) answers 503: take it out of the load balancer. Also on `METRICS_PORT`.',
      security: [],
      responses: {
        '200': answer('Ready', {
          content: json({
            type: 'object',
            required: ['status', 'checks'],
            properties: {
              status: { type: 'string', enum: ['ready'] },
              checks: { type: 'object', additionalProperties: { type: 'string' }, description: 'Each check: `ok`' },
            },
          }),
        }),
        '503': answer(
          'Not ready: `SERVICE_BUSY` in the error shape, with `checks` saying what failed (`unreachable`, `missing migration ...`, `stopped`, ...)',
          {
            content: json({
              type: 'object',
              required: ['error', 'checks'],
              properties: {
                error: {
                  type: 'object',
                  required: ['code', 'message'],
                  properties: { code: { type: 'string', enum: ['SERVICE_BUSY'] }, message: { type: 'string' } },
                },
                checks: { type: 'object', additionalProperties: { type: 'string' } },
              },
            }),
          },
        ),
        ...URI_TOO_LONG,
      },
    },
  },
  '/metrics': {
    get: {
      operationId: 'metrics',
      tags: ['operations'],
      summary: 'Prometheus metrics',
      description:
        'Prometheus text format (prom-client): requests, jobs, queues, credits, caches, database pool (docs/operations.md: "Health, readiness and metrics"). On this port only with `METRICS_TOKEN` set, sent as a bearer token (404 otherwise); on `METRICS_PORT` too, with the token wanted when one is set.',
      security: [{ metricsToken: [] }],
      responses: {
        '200': answer('The metrics', {
          content: { 'text/plain; version=0.0.4; charset=utf-8': { schema: { type: 'string' } } },
        }),
        '401': {
          ...ours('`UNAUTHENTICATED`: the metrics token is missing or wrong'),
          headers: {
            ...requestId,
            'WWW-Authenticate': { schema: { type: 'string' }, description: 'Bearer realm="metrics"' },
          },
        },
        '404': ours('`NOT_FOUND`: no `METRICS_TOKEN` is set, so this port serves no metrics'),
        ...URI_TOO_LONG,
      },
    },
  },
};

export function servicePaths(publicUrl: string): Record<string, unknown> {
  const servers = [{ url: publicUrl, description: 'The service’s origin (these endpoints are not under /api/v1)' }];
  return Object.fromEntries(Object.entries(SERVICE_OPERATIONS).map(([path, ops]) => [path, { servers, ...ops }]));
}

export const OAUTH_ERROR_SCHEMA = {
  type: 'object',
  required: ['error'],
  description: 'OAuth’s own error shape (RFC 6749 5.2), which OAuth clients parse',
  properties: {
    error: { type: 'string', description: 'e.g. invalid_grant, invalid_request, invalid_client_metadata' },
    error_description: { type: 'string' },
  },
};

export const METRICS_SECURITY = {
  type: 'http',
  scheme: 'bearer',
  description: 'Authorization: Bearer <METRICS_TOKEN> (the operator’s setting; not an API key)',
};
