import type { Context } from './context.ts';
import { SESSION_DAYS } from '../domain/accounts/sessions.ts';

// Over https the cookie takes the __Host- prefix: the browser then insists on Secure, Path=/ and no Domain, so a
// sibling subdomain cannot plant or overwrite it.
const SECURE_NAME = '__Host-subtext_session';
const PLAIN_NAME = 'subtext_session';

/** https when PUBLIC_URL says so or the proxy in front reports it (x-forwarded-proto). */
function isSecureRequest(ctx: Pick<Context, 'deps' | 'headers'>): boolean {
  const proto = ctx.headers.get('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase();
  return ctx.deps.publicUrl.startsWith('https:') || proto === 'https';
}

export function readSessionToken(headers: Headers): string | null {
  const cookie = headers.get('cookie');
  if (!cookie) return null;
  const jar = new Map<string, string>();
  for (const part of cookie.split(';')) {
    const i = part.indexOf('=');
    if (i > 0) jar.set(part.slice(0, i).trim(), part.slice(i + 1).trim());
  }
  return jar.get(SECURE_NAME) ?? jar.get(PLAIN_NAME) ?? null;
}

function serialize(ctx: Pick<Context, 'deps' | 'headers'>, value: string, maxAge: number): string {
  const secure = isSecureRequest(ctx);
  return [
    `${secure ? SECURE_NAME : PLAIN_NAME}=${value}`,
    'Path=/',
    `Max-Age=${maxAge}`,
    'HttpOnly',
    'SameSite=Lax',
    ...(secure ? ['Secure'] : []),
  ].join('; ');
}

export function setSessionCookie(ctx: Context, token: string): void {
  (ctx.out.setCookies ??= []).push(serialize(ctx, token, SESSION_DAYS * 86_400));
}

export function clearSessionCookie(ctx: Context): void {
  (ctx.out.setCookies ??= []).push(serialize(ctx, '', 0));
}
