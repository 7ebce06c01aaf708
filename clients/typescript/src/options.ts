/** Where the client gets its credential: an API key (servers only) or a source of OAuth access tokens (browsers). */
export type SubtextCredential =
  | {
      /** An API key (`sk_...`): for servers and scripts only; a key shipped to a browser is a key published. */
      key: string;
      getToken?: never;
    }
  | {
      /**
       * Called before every request: the current OAuth access token (scope `api`), refreshed by the caller as it
       * expires. What a browser app passes: it never holds a key.
       */
      getToken: () => string | Promise<string>;
      key?: never;
    };

export type SubtextClientOptions = SubtextCredential & {
  /** The service's origin, e.g. `https://subtext.example.com` (tRPC answers at `/trpc`, REST at `/api/v1`). */
  url: string;
  /** The fetch to use instead of the global one (a proxy, a test, an older runtime). */
  fetch?: typeof globalThis.fetch;
};

/** The service's origin with a path under it; a path prefix in `url` (a proxy's) is kept. */
export function endpoint(url: string, path: string): string {
  return url.replace(/\/+$/, '') + path;
}

const inBrowser = () => typeof window !== 'undefined' && typeof document !== 'undefined';

/** The Authorization header for each request; warns once when an API key is used in a browser. */
export function authorization(options: SubtextCredential): () => Promise<{ authorization: string }> {
  if (options.key?.startsWith('sk_') && inBrowser()) {
    console.warn(
      '@subtext/client: an API key (sk_...) in a browser is readable by anyone who loads the page. Keys are for ' +
        'servers only; sign the user in with OAuth and pass getToken instead (docs/clients.md).',
    );
  }
  return async () => ({ authorization: `Bearer ${options.getToken ? await options.getToken() : options.key}` });
}
