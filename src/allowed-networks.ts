// The operator's allowed networks (WEBHOOK_ALLOWED_NETWORKS, MEDIA_ALLOWED_NETWORKS): parsed here, below config.ts,
// so the configuration validates them at boot without reaching up into the adapters that enforce them.
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** The operator's own networks a caller's URL may reach: CIDRs (or single addresses) and exact host names. */
export interface AllowedNetworks {
  includes(ip: string, hostname?: string): boolean;
  readonly empty: boolean;
}

export const bareHost = (h: string) =>
  h
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();

/** Parses `10.0.0.0/8, 192.168.1.5, fd00::/8, minio.internal`; throws on an entry that is neither. */
export function parseAllowedNetworks(entries: readonly string[]): AllowedNetworks {
  const nets: [ipaddr.IPv4 | ipaddr.IPv6, number][] = [];
  const hosts = new Set<string>();
  for (const raw of entries.map((e) => e.trim()).filter(Boolean)) {
    if (raw.includes('/')) nets.push(ipaddr.parseCIDR(raw));
    else if (isIP(bareHost(raw))) {
      const a = ipaddr.parse(bareHost(raw));
      nets.push([a, a.kind() === 'ipv4' ? 32 : 128]);
    } else if (/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/i.test(bareHost(raw)))
      hosts.add(bareHost(raw));
    else throw new Error(`${JSON.stringify(raw)} is neither a CIDR, an IP address nor a host name`);
  }
  return {
    empty: nets.length === 0 && hosts.size === 0,
    includes(ip, hostname) {
      if (hostname && hosts.has(bareHost(hostname))) return true;
      if (!isIP(ip)) return false;
      let addr = ipaddr.parse(ip);
      if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress())
        addr = (addr as ipaddr.IPv6).toIPv4Address();
      return nets.some(([net, bits]) => net.kind() === addr.kind() && addr.match(net, bits));
    },
  };
}
