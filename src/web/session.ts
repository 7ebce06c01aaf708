export interface SignedIn {
  account: { id: string; email: string };
  csrfToken: string;
}

/** Who is signed in, as the server last said. The CSRF token lives in memory only, never in storage. */
export const session: { current: SignedIn | null } = { current: null };
