import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';
import type { AppRouter } from '../router/index.ts';
import { session } from './session.ts';

/** The same router the REST API and MCP are made from, with its types end to end. */
export const api = createTRPCClient<AppRouter>({
  links: [
    httpLink({
      url: `${location.origin}/trpc`,
      headers: () => (session.current ? { 'x-csrf-token': session.current.csrfToken } : {}),
    }),
  ],
});

const errorCode = (err: unknown): string | undefined =>
  err instanceof TRPCClientError ? (err.data as { code?: string } | undefined)?.code : undefined;

/** What went wrong, in words a person can act on. */
export function explain(err: unknown): string {
  const code = errorCode(err);
  if (!(err instanceof TRPCClientError))
    return err instanceof Error ? err.message : 'Something went wrong in the page. Reload it and try again.';
  if (!code) return 'Could not reach Subtext. Check your connection and try again.';
  switch (code) {
    case 'INVALID_API_KEY':
    case 'UNAUTHENTICATED':
      return code === 'UNAUTHENTICATED' && /password/.test(err.message)
        ? err.message
        : 'You are signed out. Sign in again to continue.';
    case 'FORBIDDEN':
      // SIGN_UP refusals say what to do; the rest (CSRF, origin) are fixed by a reload.
      return /^Sign-up /.test(err.message)
        ? err.message
        : 'The request was refused for security reasons. Reload the page and try again.';
    case 'INTERNAL_ERROR':
      return `Something went wrong on our side. Try again in a moment. (${err.message})`;
    default:
      return err.message;
  }
}
