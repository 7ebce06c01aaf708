// Outbound proxies for YouTube traffic, used in turn. Node's built-in fetch only takes a proxy through an undici
// dispatcher, and the `undici` package is not a dependency of this project (Node 24 bundles undici but does not
// expose it for import). We import it on first use, so a deployment that sets proxies must add `undici`.
export interface ProxyPool {
  /** The `dispatcher` to add to a fetch init, or undefined when no proxy is configured. */
  next(): Promise<object | undefined>;
}

interface UndiciModule {
  ProxyAgent: new (url: string) => object;
}

export function createProxyPool(proxyUrls: string[] = []): ProxyPool {
  const urls = proxyUrls.filter(Boolean);
  let agents: Promise<object[]> | undefined;
  let turn = 0;
  return {
    async next() {
      if (urls.length === 0) return undefined;
      agents ??= loadUndici().then((undici) => urls.map((url) => new undici.ProxyAgent(url)));
      const list = await agents;
      return list[turn++ % list.length];
    },
  };
}

async function loadUndici(): Promise<UndiciModule> {
  const name = 'undici'; // a variable, so the type checker does not look for a package we do not depend on
  try {
    return (await import(name)) as UndiciModule;
  } catch {
    throw new Error('YouTube proxies are configured but the "undici" package is not installed (npm install undici)');
  }
}
