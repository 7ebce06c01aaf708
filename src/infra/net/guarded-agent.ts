// An undici dispatcher that checks the address it is about to connect to, at connect time: a name that resolved
// to a public address when the URL was accepted cannot be re-pointed at a private one later (DNS rebinding).
import { lookup as dnsLookup } from 'node:dns';
import { Agent } from 'undici';
import { BlockedAddressError, isPublicAddress, type AddressPolicy } from './public-address.ts';

export function createGuardedAgent(
  policy: AddressPolicy = isPublicAddress,
  opts: { connectTimeoutMs?: number } = {},
): Agent {
  return new Agent({
    connect: {
      timeout: opts.connectTimeoutMs ?? 10_000,
      lookup(hostname, options, callback) {
        dnsLookup(hostname, { ...options, all: true, verbatim: true }, (err, addresses) => {
          // A resolver error names the host and what failed; callers only ever learn "not allowed".
          if (err) return callback(new BlockedAddressError(), '', 0);
          const list = addresses as unknown as { address: string; family: number }[];
          if (list.length === 0 || list.some((a) => !policy(a.address, hostname)))
            return callback(new BlockedAddressError(), '', 0);
          // undici asks with all: false; answer the first allowed address in the shape it expects.
          if ((options as { all?: boolean }).all)
            return (callback as unknown as (e: null, a: typeof list) => void)(null, list);
          return callback(null, list[0]!.address, list[0]!.family);
        });
      },
    },
  });
}
