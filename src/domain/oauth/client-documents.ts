// OAuth Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document): a client names itself by an
// https URL, and the document at that URL is its registration. What such a URL and document must look like.
import { registeredScope } from './scope.ts';
import { UnredirectableProblem } from './oauth-error.ts';
import type { OAuthClient } from './ports.ts';
import { checkRedirectUris } from './redirect-uris.ts';

/** A client id of this form is fetched, never looked up among registrations. */
export const isClientIdUrl = (id: string) => id.startsWith('https://');

/** The draft's limit an authorization server may apply to a document (section 6.1). */
export const MAX_DOCUMENT_BYTES = 5 * 1024;

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this finds
const NOT_SHOWN = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * A client's name as the consent page shows it: control and bidirectional-override characters dropped (a NUL cannot
 * be stored; an override could make the page read otherwise than it says), trimmed, at most 100 characters.
 */
export const shownClientName = (name: unknown) =>
  typeof name === 'string' ? name.replace(NOT_SHOWN, '').trim().slice(0, 100) : '';

const refuse = (why: string) =>
  new UnredirectableProblem(`The client_id is a client metadata document URL that cannot be used: ${why}.`);

/** Section 3: https, a path, no fragment, no credentials, no dot segments. Returns the URL as fetched. */
export function checkClientIdUrl(id: string): URL {
  if (id.length > 2000) throw refuse('it is longer than 2,000 characters');
  let u: URL;
  try {
    u = new URL(id);
  } catch {
    throw refuse('it is not a URL');
  }
  if (u.protocol !== 'https:') throw refuse('it must be an https URL');
  if (u.pathname === '/' || u.pathname === '') throw refuse('it must have a path');
  if (u.hash || id.includes('#')) throw refuse('it must not have a fragment');
  if (u.username || u.password) throw refuse('it must not carry credentials');
  if (/\/\.\.?(\/|$)/.test(id.slice(u.origin.length))) throw refuse('it must not have . or .. segments');
  // The URL is the identity: a normalised form that differs (case, default port) would be another client.
  if (u.href !== id) throw refuse('it must be in its normal form');
  return u;
}

/**
 * The document as a client, or a refusal: its `client_id` must be the URL it was fetched from (section 4.1), it is a
 * public client (no secret; PKCE protects the code), and its redirect URIs follow the rules of a registration.
 */
export function clientFromDocument(url: string, doc: unknown): OAuthClient {
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) throw refuse('its document is not a JSON object');
  const d = doc as Record<string, unknown>;
  if (d.client_id !== url) throw refuse('the document names another client_id');
  if ('client_secret' in d || 'client_secret_expires_at' in d) throw refuse('a document must not carry a secret');
  const auth = d.token_endpoint_auth_method ?? 'none';
  if (auth !== 'none') throw refuse('this server takes public clients only (token_endpoint_auth_method "none")');
  const uris = d.redirect_uris;
  if (!Array.isArray(uris) || uris.some((u) => typeof u !== 'string')) throw refuse('redirect_uris must be a list');
  try {
    checkRedirectUris(uris as string[]);
  } catch (err) {
    throw refuse(`its redirect_uris are not allowed (${(err as Error).message})`);
  }
  const scope = registeredScope(d.scope);
  if (!scope) throw refuse('its scope may name "mcp" and "api" only');
  const host = new URL(url).host;
  const given = shownClientName(d.client_name);
  return {
    id: url,
    name: given || host,
    redirectUris: uris as string[],
    metadata: {
      client_id: url,
      client_name: given || host,
      redirect_uris: uris,
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      scope,
      client_id_metadata_document: true,
    },
  };
}

/** Where documents come from: fetched under the SSRF rules and kept a while (src/infra/oauth/client-documents.ts). */
export interface ClientDocuments {
  /**
   * The client a document URL names. `beforeFetch` runs only when the document must be fetched (not cached), so the
   * caller can count fetches per address; it throws to refuse. Failures throw UnredirectableProblem.
   */
  resolve(url: string, beforeFetch?: () => Promise<void>): Promise<OAuthClient>;
}
