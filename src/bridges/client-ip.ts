import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context as HonoContext } from 'hono';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * The client's address for sign-in throttling. X-Forwarded-For is believed only behind a trusted proxy
 * (TRUST_PROXY), and then only its last hop, the one that proxy appended: earlier hops are the client's to forge.
 * An IPv6 client is judged by its /64: one subscriber holds all of it, so rotating the low bits is free.
 */
export function clientIp(c: HonoContext, trustProxy: boolean): string {
  if (trustProxy) {
    const hops = c.req
      .header('x-forwarded-for')
      ?.split(',')
      .map((h) => h.trim())
      .filter(Boolean);
    if (hops?.length) return throttleAddress(hops[hops.length - 1]!);
  }
  try {
    return throttleAddress(getConnInfo(c).remote.address ?? 'unknown');
  } catch {
    return 'unknown';
  }
}

/**
 * An IPv4 address as it is (IPv4-mapped IPv6 too); an IPv6 address as its /64; anything else as it is. A port some
 * proxies append to the forwarded address (`1.2.3.4:5678`, `[2001:db8::1]:5678`) is dropped: it changes per connection.
 */
function throttleAddress(raw: string): string {
  const ip = (
    /^\[([^\]]+)\](?::\d+)?$/.exec(raw)?.[1] ??
    /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(raw)?.[1] ??
    raw
  ).trim();
  if (isIP(ip) !== 6) return ip;
  const addr = ipaddr.IPv6.parse(ip);
  if (addr.isIPv4MappedAddress()) return addr.toIPv4Address().toString();
  const parts = addr.parts.slice(0, 4);
  return `${ipaddr.IPv6.parse(`${parts.map((p) => p.toString(16)).join(':')}::`).toString()}/64`;
}
