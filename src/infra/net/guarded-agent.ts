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
          if (err) return callback(err, '', 0);
          const list = addresses as unknown as { address: string; family: number }[];
          const blocked = list.find((a) => !policy(a.address));
          if (blocked || list.length === 0) {
            return callback(
              new BlockedAddressError(`${hostname} resolves to ${blocked?.address ?? 'nothing'}, which is not allowed`),
              '',
              0,
            );
          }
          // undici asks with all: false; answer the first allowed address in the shape it expects.
          if ((options as { all?: boolean }).all)
            return (callback as unknown as (e: null, a: typeof list) => void)(null, list);
          return callback(null, list[0]!.address, list[0]!.family);
        });
      },
    },
  });
}
