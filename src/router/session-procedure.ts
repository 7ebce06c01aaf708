import { ServiceError } from '../domain/errors.ts';
import type { Session } from '../domain/accounts/session.ts';
import { consumeRateLimit } from '../domain/rate-limit/rate-limit.ts';
import { rateLimited } from './authenticate-request.ts';
import type { Context } from './context.ts';
import { requireSession, SESSION_CALLER_PREFIX } from './session-auth.ts';
import { publicProcedure } from './trpc.ts';

interface SessionContext extends Context {
  session: Session;
  sessionToken: string;
}

/**
 * The website's way in (account and key management): a session cookie; mutations also need the x-csrf-token
 * header. API keys are not accepted here, so a leaked key cannot mint more keys.
 */
export const sessionProcedure = publicProcedure.use(async ({ ctx, type, next }) => {
  const { session, token } = await requireSession(ctx, type === 'mutation');
  const limit = session.rateLimit ?? ctx.deps.config.RATE_LIMIT_PER_MINUTE;
  const state = await consumeRateLimit(ctx.deps, SESSION_CALLER_PREFIX + session.accountId, limit);
  ctx.out.rateLimit = state;
  if (!state.allowed) throw rateLimited(state);
  return next({ ctx: { ...ctx, session, sessionToken: token } as SessionContext });
});

/**
 * Sign-up and sign-in have no session to carry a CSRF token yet. A browser always sends Origin on a cross-site
 * POST, so one that names another site is refused (login CSRF: signing a victim into the attacker's account).
 */
export function assertSameOrigin(ctx: Context): void {
  const origin = ctx.headers.get('origin');
  if (!origin) return;
  const host = ctx.headers.get('x-forwarded-host') ?? ctx.headers.get('host');
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    originHost = '';
  }
  if (originHost !== host && origin !== new URL(ctx.deps.publicUrl).origin) {
    throw new ServiceError('FORBIDDEN', 'Cross-site sign-in requests are refused');
  }
}

/** The address throttling counts against; set by the HTTP bridge. */
export const clientIpOf = (ctx: Context) => ctx.clientIp ?? 'unknown';
