import { z } from 'zod';
import { SignedIn } from '../../domain/accounts/credentials.ts';
import { findSession } from '../../domain/accounts/sessions.ts';
import { readSessionToken } from '../session-cookie.ts';
import { publicProcedure } from '../trpc.ts';

/** Who is signed in (null when no one), with the CSRF token the page sends back on changes. */
export const meProcedure = publicProcedure
  .input(z.object({}).optional())
  .output(SignedIn.nullable())
  .query(async ({ ctx }) => {
    const session = await findSession(ctx.deps, readSessionToken(ctx.headers));
    return session ? { account: { id: session.accountId, email: session.email }, csrfToken: session.csrfToken } : null;
  });
