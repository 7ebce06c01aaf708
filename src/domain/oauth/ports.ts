// What the OAuth verbs need from the outside: storage (src/infra/postgres/oauth-store.ts) and access tokens
// (src/infra/oauth/access-tokens.ts).

export interface OAuthClient {
  id: string;
  name: string;
  redirectUris: string[];
  metadata: Record<string, unknown>;
}

export interface StoredCode {
  clientId: string;
  accountId: string;
  redirectUri: string;
  /** The authorization request named redirect_uri (rather than relying on the one registered). */
  redirectUriGiven: boolean;
  codeChallenge: string;
  resource: string;
  scope: string;
  fresh: boolean;
  used: boolean;
}

export interface Grant {
  id: string;
  clientId: string;
  accountId: string;
  scope: string;
  resource: string;
}

export interface GrantListing {
  id: string;
  clientId: string;
  clientName: string;
  scope: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
  status: 'active' | 'revoked' | 'expired';
}

export interface OAuthStore {
  saveClient(c: OAuthClient): Promise<void>;
  /** A client named by its metadata document: inserted, or refreshed from the latest fetch of the document. */
  upsertClient(c: OAuthClient): Promise<void>;
  findClient(id: string): Promise<OAuthClient | null>;
  saveCode(codeHash: string, c: Omit<StoredCode, 'fresh' | 'used'>, ttlSeconds: number): Promise<void>;
  /** The code as stored, used or not, without spending it (the exchange checks everything first). */
  findCode(codeHash: string): Promise<StoredCode | null>;
  /** A code presented a second time: revokes the grant it was exchanged for (RFC 6749 4.1.2). */
  revokeGrantOfUsedCode(codeHash: string): Promise<void>;
  /**
   * Spends the code and writes the grant it gives in one transaction, once; false when the code was already used. A
   * concurrent replay therefore never sees the code used without the grant to revoke.
   */
  spendCodeForGrant(codeHash: string, g: Grant, refreshHash: string, refreshTtlSeconds: number): Promise<boolean>;
  /** The live grant whose current refresh token this is, for this client; nothing changes. */
  findLiveRefresh(refreshHash: string, clientId: string): Promise<Grant | null>;
  /**
   * Swaps the refresh token for a new one and keeps the old one in the grant's family, in one statement: null when the
   * old one is not the grant's current token (unknown, revoked, expired, or already used).
   */
  rotateRefresh(oldHash: string, newHash: string, clientId: string, refreshTtlSeconds: number): Promise<Grant | null>;
  /**
   * Revokes the grant that rotated this refresh token away at any point (a used token presented again: likely stolen),
   * and with it every refresh and access token of the grant.
   */
  revokeFamilyOfUsedRefresh(oldHash: string): Promise<boolean>;
  revokeByRefresh(refreshHash: string): Promise<boolean>;
  revokeGrant(grantId: string, accountId?: string): Promise<boolean>;
  /**
   * The caller behind a live grant (not revoked, not expired), noting its use, with `n` requests counted against
   * the grant's current window in the same statement (`count` null when `n` is 0); null otherwise.
   */
  useGrantAndCount(
    grantId: string,
    windowStart: Date,
    n: number,
  ): Promise<{ accountId: string; rateLimit: number | null; count: number | null } | null>;
  listGrants(accountId: string): Promise<GrantListing[]>;
  /** The account approved this client and has not revoked it: a grant of theirs is live. */
  hasLiveGrant(accountId: string, clientId: string): Promise<boolean>;
}

interface AccessTokenClaims {
  grantId: string;
  accountId: string;
  clientId: string;
  scope: string;
}

export interface AccessTokens {
  readonly ttlSeconds: number;
  /** A token for every resource of `audience` (RFC 8707: one per scope the grant carries). */
  issue(c: AccessTokenClaims & { audience: string[] }): Promise<string>;
  /** The claims of a token we signed for `resource`, unexpired; null for anything else. */
  verify(token: string, resource: string): Promise<AccessTokenClaims | null>;
  /** The grant a token we signed names, expired or not (for revocation). */
  grantOf(token: string): Promise<string | null>;
}
