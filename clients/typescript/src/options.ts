export interface SubtextClientOptions {
  /** The service's origin, e.g. `https://subtext.example.com` (tRPC answers at `/trpc`, REST at `/api/v1`). */
  url: string;
  /** An API key (`sk_...`) or an OAuth access token, sent as `Authorization: Bearer <key>`. */
  key: string;
  /** The fetch to use instead of the global one (a proxy, a test, an older runtime). */
  fetch?: typeof globalThis.fetch;
}

/** The service's origin with a path under it; a path prefix in `url` (a proxy's) is kept. */
export function endpoint(url: string, path: string): string {
  return url.replace(/\/+$/, '') + path;
}

export const authorization = (key: string) => ({ authorization: `Bearer ${key}` });
