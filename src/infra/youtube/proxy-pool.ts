// The egress identities YouTube traffic leaves from: the machine's own address ("direct") when no proxy is set, else
// one per proxy of YOUTUBE_PROXY_URLS (http://, https:// or socks5://, credentials in the URL). undici's ProxyAgent
// speaks all three (SOCKS5 through its Socks5ProxyAgent); Node's fetch takes it as `dispatcher`.
// An identity's name never carries the proxy's credentials: it is stored in PostgreSQL and shown on /metrics.
import { ProxyAgent } from 'undici';

/** The identity of requests sent from the machine's own address. */
export const DIRECT = 'direct';

export interface ProxyPool {
  /** Identity names, in the order configured: "direct", or "proxy-1:host:port"... */
  readonly identities: string[];
  /** The dispatcher for an identity (undefined: direct). */
  dispatcher(identity: string): object | undefined;
  /** For requests made outside a paced chain (listing pages): the identities in turn. */
  next(): object | undefined;
}

/** "proxy-2:host:port": the position keeps two proxies on one host apart, the host says which it is. */
export function identityName(url: string, index: number): string {
  const u = new URL(url);
  return `proxy-${index + 1}:${u.hostname}${u.port ? `:${u.port}` : ''}`;
}

/** The identities a pool over these URLs has, without building it. */
export function proxyIdentities(proxyUrls: string[] = []): string[] {
  const urls = proxyUrls.filter(Boolean);
  return urls.length ? urls.map(identityName) : [DIRECT];
}

export function createProxyPool(proxyUrls: string[] = []): ProxyPool {
  const urls = proxyUrls.filter(Boolean);
  const agents = new Map<string, object>();
  const identities = proxyIdentities(urls);
  // Agents are made on first use: building one opens nothing, but there is no point before a request.
  const agentFor = (identity: string) => {
    const i = identities.indexOf(identity);
    if (urls.length === 0 || i < 0) return undefined;
    let agent = agents.get(identity);
    if (!agent) {
      // Plain-http targets (a relay, tests) go as absolute-form requests, as HTTP proxies expect; https targets
      // (youtube.com) always go through a CONNECT tunnel.
      agent = new ProxyAgent({ uri: urls[i]!, proxyTunnel: false });
      agents.set(identity, agent);
    }
    return agent;
  };
  let turn = 0;
  return {
    identities,
    dispatcher: agentFor,
    next: () => (urls.length ? agentFor(identities[turn++ % identities.length]!) : undefined),
  };
}
