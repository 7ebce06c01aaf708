// Outbound URLs chosen by callers (webhook callbacks; direct media URLs) may only reach the public internet:
// never loopback, private, link-local, carrier-grade NAT, multicast or reserved ranges, in IPv4 or IPv6 (including
// IPv4-mapped IPv6). ipaddr.js classifies the ranges; anything it does not call plain `unicast` is refused.
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** Whether one IP address is a public unicast address. */
export function isPublicAddress(ip: string): boolean {
  if (!ipaddr.isValid(ip)) return false;
  let addr = ipaddr.parse(ip);
  if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress())
    addr = (addr as ipaddr.IPv6).toIPv4Address();
  return addr.range() === 'unicast';
}

/** Decides whether an address may be connected to; production uses isPublicAddress, tests may inject another. */
export type AddressPolicy = (ip: string) => boolean;

export class BlockedAddressError extends Error {}

/** Every address `hostname` resolves to, each allowed by `policy` (all of them: a mixed answer is refused). */
export async function resolveAllowed(hostname: string, policy: AddressPolicy = isPublicAddress): Promise<string[]> {
  const host = hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(host) ? [host] : (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
  if (addresses.length === 0) throw new BlockedAddressError(`${hostname} does not resolve`);
  const blocked = addresses.find((a) => !policy(a));
  if (blocked) throw new BlockedAddressError(`${hostname} resolves to ${blocked}, which is not a public address`);
  return addresses;
}
