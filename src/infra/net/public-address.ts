// Outbound URLs chosen by callers (webhook callbacks; direct media URLs) may only reach the public internet. This is
// an allow-list, not a deny-list: an IPv6 address is public only inside 2000::/3 (global unicast) and outside the
// special-purpose blocks there; an IPv4 address is public unless it is in one of IANA's special-purpose blocks.
// Addresses that embed an IPv4 address (IPv4-mapped, NAT64 64:ff9b::/96, 6to4 2002::/16) are judged by it; the
// deprecated IPv4-compatible form (::a.b.c.d) and Teredo are refused. Only canonical literals are parsed (node's
// isIP): `0x7f.1` or `2130706433` are not addresses here; URL parsing and getaddrinfo turn them into dotted ones,
// and that is what is checked.
// https://www.iana.org/assignments/iana-ipv4-special-registry, .../iana-ipv6-special-registry
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { bareHost, type AllowedNetworks } from '../../allowed-networks.ts';

const cidrs = (list: string[]) => list.map((c) => ipaddr.parseCIDR(c));

const NOT_PUBLIC_V4 = cidrs([
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.0.0.0/24',
  '192.0.2.0/24',
  '192.31.196.0/24',
  '192.52.193.0/24',
  '192.88.99.0/24',
  '192.168.0.0/16',
  '192.175.48.0/24',
  '198.18.0.0/15',
  '198.51.100.0/24',
  '203.0.113.0/24',
  '224.0.0.0/3', // multicast, reserved (240/4) and broadcast
]);

const GLOBAL_V6 = ipaddr.parseCIDR('2000::/3');
const NOT_PUBLIC_V6 = cidrs([
  '2001::/23', // IETF protocol assignments: Teredo, benchmarking, ORCHID...
  '2001:db8::/32', // documentation
  '3fff::/20', // documentation
]);
const SIX_TO_FOUR = ipaddr.parseCIDR('2002::/16');
const NAT64 = ipaddr.parseCIDR('64:ff9b::/96');

function isPublicV4(addr: ipaddr.IPv4): boolean {
  return !NOT_PUBLIC_V4.some((c) => addr.match(c));
}

function isPublicV6(addr: ipaddr.IPv6): boolean {
  if (addr.isIPv4MappedAddress()) return isPublicV4(addr.toIPv4Address());
  const bytes = addr.toByteArray();
  if (addr.match(NAT64)) return isPublicV4(ipaddr.fromByteArray(bytes.slice(12)) as ipaddr.IPv4);
  if (!addr.match(GLOBAL_V6) || NOT_PUBLIC_V6.some((c) => addr.match(c))) return false;
  if (addr.match(SIX_TO_FOUR)) return isPublicV4(ipaddr.fromByteArray(bytes.slice(2, 6)) as ipaddr.IPv4);
  return true;
}

/** Whether one IP address (a canonical literal) is a public unicast address. */
export function isPublicAddress(ip: string): boolean {
  const version = isIP(ip);
  if (version === 0) return false;
  const addr = ipaddr.parse(ip);
  return version === 4 ? isPublicV4(addr as ipaddr.IPv4) : isPublicV6(addr as ipaddr.IPv6);
}

/**
 * Decides whether an address may be connected to, given the host name it was resolved from (when there was one);
 * production uses `operatorPolicy`, tests may inject another.
 */
export type AddressPolicy = (ip: string, hostname?: string) => boolean;

/** Public addresses, plus whatever the operator allowed. */
export function operatorPolicy(allowed: AllowedNetworks): AddressPolicy {
  return (ip, hostname) => isPublicAddress(ip) || allowed.includes(ip, hostname);
}

/** Refused by the address policy; its message names no address (it may reach a caller). */
export class BlockedAddressError extends Error {
  constructor() {
    super('the host is not allowed');
  }
}

/** The one answer a caller gets for a refused host: it says nothing about what the name resolves to, or why not. */
export const REFUSED_HOST = 'its host is not a public address, or does not resolve';

/** Every address `hostname` resolves to, each allowed by `policy` (all of them: a mixed answer is refused). */
export async function resolveAllowed(hostname: string, policy: AddressPolicy = isPublicAddress): Promise<string[]> {
  const host = bareHost(hostname);
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
  } catch {
    throw new BlockedAddressError();
  }
  if (addresses.length === 0 || addresses.some((a) => !policy(a, isIP(host) ? undefined : host)))
    throw new BlockedAddressError();
  return addresses;
}
