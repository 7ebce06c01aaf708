import { createHash, randomBytes } from 'node:crypto';
import { newId } from '../ids.ts';
import { OAuthProblem, UnredirectableProblem } from './oauth-error.ts';
import type { AccessTokens, Grant, OAuthClient, OAuthStore } from './ports.ts';
import { checkRedirectUris } from './redirect-uris.ts';
import { type ClientDocuments, checkClientIdUrl, isClientIdUrl, shownClientName } from './client-documents.ts';
import { MCP_SCOPE, registeredScope, resourcesOf, type ScopeResources, scopeList } from './scope.ts';

export { MCP_SCOPE, SCOPE_DESCRIPTIONS, SCOPES } from './scope.ts';

const CODE_TTL_S = 60;
/** A refresh token unused this long dies; every use rotates it and restarts the clock. */
const REFRESH_TTL_S = 30 * 86_400;

export interface OAuthPorts {
  store: OAuthStore;
  tokens: AccessTokens;
  /** PKCE S256 check (RFC 7636 4.6). */
  verifyPkce(verifier: string, challenge: string): Promise<boolean>;
  /** Clients that name themselves by a metadata document URL instead of registering. */
  clientDocuments: ClientDocuments;
  /** The resource each scope's tokens are for (from PUBLIC_URL, which may be learnt after start). */
  resources(): ScopeResources;
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const REFRESH_PREFIX = 'srt_';
const PKCE_VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;
const PKCE_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

export interface ClientRegistration {
  client_name?: string;
  redirect_uris: string[];
  grant_types?: string[];
  response_types?: string[];
  scope?: string;
  /** As sent: absent (undefined) is inferred from the redirect URIs; anything but "web" or "native" is refused. */
  application_type?: unknown;
  [k: string]: unknown;
}

/**
 * OpenID Connect's application types (MCP's SEP-837): a web client is sent back to https only; a native one may also
 * use loopback http or its own scheme (RFC 8252). Clients built on 2025 SDKs omit it: then it is what the redirect
 * URIs say (https only: web; any loopback or private-use one: native), and `inferred` records that.
 */
function applicationTypeOf(given: unknown, uris: string[]): { type: 'web' | 'native'; inferred: boolean } {
  const inferred = given === undefined;
  // By the parsed scheme (checkRedirectUris has parsed each): "HTTPS://" is https too.
  const https = (u: string) => new URL(u).protocol === 'https:';
  const type = inferred ? (uris.every(https) ? 'web' : 'native') : given;
  if (type !== 'web' && type !== 'native') {
    throw new OAuthProblem(
      'invalid_client_metadata',
      'application_type must be "web" (https redirect URIs) or "native" (loopback or private-use schemes), or left out',
    );
  }
  if (type === 'web' && !uris.every(https))
    throw new OAuthProblem('invalid_redirect_uri', 'A web application is sent back to https redirect URIs only');
  return { type, inferred };
}

/**
 * RFC 7591: public clients only (no secret; PKCE protects the code), so the auth method is always "none". Kept for
 * clients that cannot publish a metadata document, which is the preferred way (see client-documents.ts).
 */
export async function registerClient(p: Pick<OAuthPorts, 'store'>, m: ClientRegistration) {
  checkRedirectUris(m.redirect_uris);
  const applicationType = applicationTypeOf(m.application_type, m.redirect_uris);
  const grantTypes = m.grant_types ?? ['authorization_code', 'refresh_token'];
  if (grantTypes.some((g) => g !== 'authorization_code' && g !== 'refresh_token')) {
    throw new OAuthProblem('invalid_client_metadata', 'grant_types may be authorization_code and refresh_token only');
  }
  if ((m.response_types ?? ['code']).some((r) => r !== 'code')) {
    throw new OAuthProblem('invalid_client_metadata', 'response_types may be code only');
  }
  const scope = registeredScope(m.scope);
  if (!scope) throw new OAuthProblem('invalid_client_metadata', 'scope may name "mcp" and "api" only');
  const name = shownClientName(m.client_name) || 'Unnamed MCP client';
  const client: OAuthClient = {
    id: newId('oac'),
    name,
    redirectUris: m.redirect_uris,
    metadata: {
      client_name: name,
      redirect_uris: m.redirect_uris,
      grant_types: grantTypes,
      response_types: ['code'],
      application_type: applicationType.type,
      application_type_inferred: applicationType.inferred,
      token_endpoint_auth_method: 'none',
      scope,
      ...(typeof m.client_uri === 'string' ? { client_uri: m.client_uri.replaceAll('\u0000', '').slice(0, 500) } : {}),
    },
  };
  await p.store.saveClient(client);
  return { client_id: client.id, client_id_issued_at: Math.floor(Date.now() / 1000), ...client.metadata };
}

export interface AuthorizationParams {
  response_type?: string;
  client_id?: string;
  redirect_uri?: string;
  code_challenge?: string;
  code_challenge_method?: string;
  scope?: string;
  state?: string;
  resource?: string;
}

export interface CheckedAuthorization {
  client: OAuthClient;
  redirectUri: string;
  /** The request named redirect_uri itself; the token request must then repeat it (RFC 6749 4.1.3). */
  redirectUriGiven: boolean;
  codeChallenge: string;
  scope: string;
  state: string | undefined;
  resource: string;
}

/**
 * Checks an authorization request. Unknown clients and unregistered redirect URIs throw UnredirectableProblem (shown
 * to the user, never redirected); the rest throw OAuthProblem, sent back to the (registered) redirect URI.
 */
export async function checkAuthorization(
  p: Pick<OAuthPorts, 'store' | 'clientDocuments' | 'resources'>,
  q: AuthorizationParams,
  beforeDocumentFetch?: () => Promise<void>,
): Promise<CheckedAuthorization & { problem?: OAuthProblem }> {
  const client = q.client_id ? await findClient(p, q.client_id, beforeDocumentFetch) : null;
  if (!client)
    throw new UnredirectableProblem('Unknown client_id: the application must register with this server first.');
  const redirectUri = q.redirect_uri ?? (client.redirectUris.length === 1 ? client.redirectUris[0] : undefined);
  if (!redirectUri || !client.redirectUris.includes(redirectUri)) {
    throw new UnredirectableProblem(
      'The redirect_uri is not one this application registered, so the request was refused.',
    );
  }
  // The scopes the client registered bound what it may ask; what it asks is all it gets.
  const allowed = scopeList(String(client.metadata.scope ?? MCP_SCOPE));
  const asked = q.scope === undefined ? allowed : [...new Set(scopeList(q.scope))];
  const scope = asked.every((s) => allowed.includes(s)) && asked.length ? asked.join(' ') : MCP_SCOPE;
  const resources = resourcesOf(scope, p.resources());
  const base = {
    client,
    redirectUri,
    redirectUriGiven: q.redirect_uri !== undefined,
    state: q.state,
    codeChallenge: q.code_challenge ?? '',
    scope,
    resource: q.resource !== undefined && resources.includes(q.resource) ? q.resource : (resources[0] as string),
  };
  const fail = (code: string, description: string) => ({ ...base, problem: new OAuthProblem(code, description) });
  if (q.response_type !== 'code') return fail('unsupported_response_type', 'response_type must be code');
  if (q.code_challenge_method !== 'S256' || !q.code_challenge || !PKCE_CHALLENGE.test(q.code_challenge)) {
    return fail(
      'invalid_request',
      'PKCE is required: code_challenge (S256, base64url of 32 bytes) with code_challenge_method=S256',
    );
  }
  if (!asked.length || asked.some((s) => !allowed.includes(s)))
    return fail('invalid_scope', `This application may ask for "${allowed.join(' ')}" only`);
  if (q.resource !== undefined && q.resource !== base.resource)
    return fail('invalid_target', `Tokens of scope "${scope}" are for ${resources.join(' and ')} only`);
  return base;
}

/**
 * A registered client, or the one a metadata document URL names: fetched (or taken from the cache) and kept as a
 * client row, which the codes and grants it gets point at.
 */
async function findClient(
  p: Pick<OAuthPorts, 'store' | 'clientDocuments'>,
  id: string,
  beforeFetch?: () => Promise<void>,
): Promise<OAuthClient | null> {
  if (!isClientIdUrl(id)) return p.store.findClient(id);
  const client = await p.clientDocuments.resolve(checkClientIdUrl(id).href, beforeFetch);
  await p.store.upsertClient(client);
  return client;
}

/**
 * Whether an authorization error may be redirected to this client (RFC 9700 4.11.2): only when the signed-in user
 * approved it and has not revoked it. Anyone can register a client with any https redirect URI, so for everyone else
 * a redirect would make a link on this service's address land on a page a stranger chose.
 */
export async function redirectTrusted(
  p: Pick<OAuthPorts, 'store'>,
  clientId: string,
  accountId: string | undefined,
): Promise<boolean> {
  return accountId !== undefined && (await p.store.hasLiveGrant(accountId, clientId));
}

/** The signed-in account allowed the client: a single-use code bound to everything the request named. */
export async function issueCode(
  p: Pick<OAuthPorts, 'store'>,
  a: CheckedAuthorization,
  accountId: string,
): Promise<string> {
  const code = randomBytes(32).toString('base64url');
  await p.store.saveCode(
    sha256(code),
    {
      clientId: a.client.id,
      accountId,
      redirectUri: a.redirectUri,
      redirectUriGiven: a.redirectUriGiven,
      codeChallenge: a.codeChallenge,
      resource: a.resource,
      scope: a.scope,
    },
    CODE_TTL_S,
  );
  return code;
}

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
}

async function tokensFor(p: OAuthPorts, g: Grant, refreshToken: string): Promise<TokenResponse> {
  const access = await p.tokens.issue({
    grantId: g.id,
    accountId: g.accountId,
    clientId: g.clientId,
    scope: g.scope,
    audience: resourcesOf(g.scope, p.resources()),
  });
  return {
    access_token: access,
    token_type: 'Bearer',
    expires_in: p.tokens.ttlSeconds,
    refresh_token: refreshToken,
    scope: g.scope,
  };
}

const newRefreshToken = () => REFRESH_PREFIX + randomBytes(32).toString('base64url');

/**
 * authorization_code grant (RFC 6749 4.1.3 + RFC 7636 + RFC 8707). Everything is checked before the code is spent, so
 * a failed attempt (a wrong verifier, a missing redirect_uri) leaves it usable; once spent it works never again, and
 * presenting it again revokes what it gave.
 */
export async function exchangeCode(
  p: OAuthPorts,
  r: { code?: string; code_verifier?: string; client_id?: string; redirect_uri?: string; resource?: string },
): Promise<TokenResponse> {
  if (!r.code || !r.client_id) throw new OAuthProblem('invalid_request', 'code and client_id are required');
  if (!r.code_verifier || !PKCE_VERIFIER.test(r.code_verifier))
    throw new OAuthProblem('invalid_request', 'code_verifier is required (PKCE)');
  const codeHash = sha256(r.code);
  const stored = await p.store.findCode(codeHash);
  const replayed = async () => {
    // Whatever was issued for this code may be in the wrong hands.
    await p.store.revokeGrantOfUsedCode(codeHash);
    return new OAuthProblem('invalid_grant', 'The authorization code is invalid or was already used');
  };
  if (!stored || stored.used) throw await replayed();
  if (!stored.fresh) throw new OAuthProblem('invalid_grant', 'The authorization code has expired');
  if (stored.clientId !== r.client_id)
    throw new OAuthProblem('invalid_grant', 'The authorization code was issued to another client');
  if (
    stored.redirectUriGiven
      ? r.redirect_uri !== stored.redirectUri
      : (r.redirect_uri ?? stored.redirectUri) !== stored.redirectUri
  )
    throw new OAuthProblem('invalid_grant', 'redirect_uri does not match the authorization request');
  if (!(await p.verifyPkce(r.code_verifier, stored.codeChallenge)))
    throw new OAuthProblem('invalid_grant', 'The code_verifier does not match the code_challenge');
  const audience = resourcesOf(stored.scope, p.resources());
  if (r.resource !== undefined && !audience.includes(r.resource))
    throw new OAuthProblem('invalid_target', `The code is for ${audience.join(' and ')} only`);
  const grant: Grant = {
    id: newId('oag'),
    clientId: stored.clientId,
    accountId: stored.accountId,
    scope: stored.scope,
    resource: stored.resource,
  };
  const refresh = newRefreshToken();
  // Spent only now, once, with its grant: a concurrent exchange that got here first makes this one a replay.
  if (!(await p.store.spendCodeForGrant(codeHash, grant, sha256(refresh), REFRESH_TTL_S))) throw await replayed();
  return tokensFor(p, grant, refresh);
}

/**
 * refresh_token grant with rotation: the presented token dies; presenting any token the grant ever rotated away
 * revokes the whole grant (RFC 9700 4.14.2), so a thief and the client cannot both keep refreshing. The request is
 * checked in full before rotating: a refused refresh (another resource, say) leaves the token the client holds valid,
 * where rotating first would make its retry look like a replay and revoke its sign-in.
 */
export async function refreshTokens(
  p: OAuthPorts,
  r: { refresh_token?: string; client_id?: string; resource?: string },
): Promise<TokenResponse> {
  if (!r.refresh_token || !r.client_id)
    throw new OAuthProblem('invalid_request', 'refresh_token and client_id are required');
  const oldHash = sha256(r.refresh_token);
  const replayed = async () => {
    await p.store.revokeFamilyOfUsedRefresh(oldHash);
    return new OAuthProblem('invalid_grant', 'The refresh token is invalid, expired, revoked or already used');
  };
  const live = await p.store.findLiveRefresh(oldHash, r.client_id);
  if (!live) throw await replayed();
  const audience = resourcesOf(live.scope, p.resources());
  if (r.resource !== undefined && !audience.includes(r.resource))
    throw new OAuthProblem('invalid_target', `The grant is for ${audience.join(' and ')} only`);
  const next = newRefreshToken();
  const grant = await p.store.rotateRefresh(oldHash, sha256(next), r.client_id, REFRESH_TTL_S);
  if (!grant) throw await replayed();
  return tokensFor(p, grant, next);
}

/** RFC 7009: a refresh or access token; either revokes its grant. Unknown tokens are not an error. */
export async function revokeToken(p: OAuthPorts, token: string | undefined): Promise<void> {
  if (!token || token.length > 4096) return;
  if (token.startsWith(REFRESH_PREFIX)) {
    await p.store.revokeByRefresh(sha256(token));
    return;
  }
  const grantId = await p.tokens.grantOf(token);
  if (grantId) await p.store.revokeGrant(grantId);
}
