import { SignedIn, SignInInput } from '../../domain/accounts/credentials.ts';
import { createSession } from '../../domain/accounts/sessions.ts';
import { signIn } from '../../domain/accounts/sign-in.ts';
import { readSessionToken, setSessionCookie } from '../session-cookie.ts';
import { assertSameOrigin, clientIpOf } from '../session-procedure.ts';
import { publicProcedure } from '../trpc.ts';
import { throttleLimits } from './throttle-limits.ts';

/** Always a new session id: whatever cookie the browser had (possibly planted) is deleted, never upgraded. */
export const signInProcedure = publicProcedure
  .input(SignInInput)
  .output(SignedIn)
  .mutation(async ({ ctx, input }) => {
    assertSameOrigin(ctx);
    const { accountId } = await signIn(ctx.deps, input, clientIpOf(ctx), throttleLimits(ctx), ctx.deps.clock.now());
    const { token, session } = await createSession(ctx.deps, accountId, readSessionToken(ctx.headers));
    setSessionCookie(ctx, token);
    return { account: { id: session.accountId, email: session.email }, csrfToken: session.csrfToken };
  });
