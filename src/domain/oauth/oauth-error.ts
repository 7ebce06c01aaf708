/** An OAuth protocol error (RFC 6749 5.2 / 4.1.2.1 codes), answered in OAuth's own shape by the bridge. */
export class OAuthProblem extends Error {
  readonly code: string;
  readonly status: number;
  constructor(code: string, description: string, status = 400) {
    super(description);
    this.code = code;
    this.status = status;
  }
}

/**
 * A request that must not be answered by redirecting (unknown client, unregistered redirect URI): redirecting
 * would hand the user, or a code, to whoever named the URI (RFC 6749 4.1.2.1).
 */
export class UnredirectableProblem extends Error {
  /** The OAuth error code the page shows (RFC 6749 4.1.2.1). */
  readonly code: string;
  constructor(description: string, code = 'invalid_request') {
    super(description);
    this.code = code;
  }
}
