import type { ThrottleLimits } from '../../domain/accounts/sign-in-throttle.ts';
import type { Context } from '../context.ts';

export const throttleLimits = (ctx: Context): ThrottleLimits => ({
  perEmail: ctx.deps.config.SIGN_IN_MAX_PER_EMAIL,
  perIp: ctx.deps.config.SIGN_IN_MAX_PER_IP,
});
