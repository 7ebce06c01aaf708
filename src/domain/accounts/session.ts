// A signed-in browser session (its own file so the account store and the session verbs share it without a cycle).
export interface Session {
  id: string;
  accountId: string;
  email: string;
  csrfToken: string;
  /** The account's own requests-per-minute limit, or null for the service default. */
  rateLimit: number | null;
}
