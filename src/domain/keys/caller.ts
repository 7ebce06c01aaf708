// Who is calling: the account and key an API key or token resolved to (its own file so stores and verbs share it
// without importing each other).
export interface Caller {
  accountId: string;
  keyId: string;
  /** Requests per minute allowed for this key, or null for the service default. */
  rateLimit: number | null;
}
