import type { ThrottleLimits } from '../../domain/accounts/sign-in-throttle.ts';
import type { Context } from '../context.ts';

export const throttleLimits = (ctx: Context): ThrottleLimits => ({
  freeFailures: ctx.deps.config.SIGN_IN_FREE_FAILURES,
  emailCeiling: ctx.deps.config.SIGN_IN_EMAIL_CEILING,
  perIp: ctx.deps.config.SIGN_IN_MAX_PER_IP,
});
