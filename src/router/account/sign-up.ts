import { SignedIn, SignUpInput } from '../../domain/accounts/credentials.ts';
import { createSession } from '../../domain/accounts/sessions.ts';
import { signUp } from '../../domain/accounts/sign-up.ts';
import { readSessionToken, setSessionCookie } from '../session-cookie.ts';
import { assertSameOrigin, clientIpOf } from '../session-procedure.ts';
import { publicProcedure } from '../trpc.ts';
import { throttleLimits } from './throttle-limits.ts';

export const signUpProcedure = publicProcedure
  .input(SignUpInput)
  .output(SignedIn)
  .mutation(async ({ ctx, input }) => {
    assertSameOrigin(ctx);
    const { config } = ctx.deps;
    const { accountId } = await signUp(
      ctx.deps,
      input,
      clientIpOf(ctx),
      throttleLimits(ctx),
      { mode: config.SIGN_UP, freeDelayDays: config.NEW_ACCOUNT_FREE_DELAY_DAYS },
      ctx.deps.clock.now(),
    );
    const { token, session } = await createSession(ctx.deps, accountId, readSessionToken(ctx.headers));
    setSessionCookie(ctx, token);
    return { account: { id: session.accountId, email: session.email }, csrfToken: session.csrfToken };
  });
