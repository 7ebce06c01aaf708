// Who is calling: the account and key an API key or token resolved to (its own file so stores and verbs share it
// without importing each other).
export interface Caller {
  accountId: string;
  keyId: string;
  /** Requests per minute allowed for this key, or null for the service default. */
  rateLimit: number | null;
}

/** One caller's request as the domain's verbs take it: who, the request id the ledger and jobs carry, its abort signal. */
export interface CallerRequest {
  caller: Caller;
  requestId: string;
  signal?: AbortSignal;
}
