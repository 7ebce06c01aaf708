import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context as HonoContext } from 'hono';

/**
 * The client's address for sign-in throttling. X-Forwarded-For is believed only behind a trusted proxy
 * (TRUST_PROXY), and then only its last hop, the one that proxy appended: earlier hops are the client's to forge.
 */
export function clientIp(c: HonoContext, trustProxy: boolean): string {
  if (trustProxy) {
    const hops = c.req
      .header('x-forwarded-for')
      ?.split(',')
      .map((h) => h.trim())
      .filter(Boolean);
    if (hops?.length) return hops[hops.length - 1]!;
  }
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
}
