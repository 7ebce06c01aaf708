// The parts every fetch of a caller-chosen URL shares: redirects followed by us (so each hop is checked before it is
// requested), bodies read up to a bound, and the resource's size from a ranged or full answer.

const MAX_REDIRECTS = 5;

/** What the loop needs of a response; both the global fetch's and undici's fit. */
interface AnyResponse {
  status: number;
  headers: { get(name: string): string | null };
  body: { cancel(): Promise<void> } | null;
}

export interface RedirectFailures {
  /** A 3xx without a Location we can parse. */
  missing(status: number): Error;
  /** More than MAX_REDIRECTS hops. */
  tooMany(status: number): Error;
}

/** Requests `start` and every redirect target after `check` accepted it; the first non-3xx answer and its URL. */
export async function followRedirects<R extends AnyResponse>(
  start: URL,
  request: (url: URL) => Promise<R>,
  check: (href: string) => URL | Promise<URL>,
  fail: RedirectFailures,
): Promise<{ url: URL; res: R }> {
  let url = start;
  for (let hop = 0; ; hop++) {
    const res = await request(url);
    if (res.status < 300 || res.status >= 400) return { url, res };
    await res.body?.cancel();
    const location = res.headers.get('location');
    let next: URL | undefined;
    try {
      next = location ? new URL(location, url) : undefined;
    } catch {
      next = undefined;
    }
    if (!next) throw fail.missing(res.status);
    if (hop >= MAX_REDIRECTS) throw fail.tooMany(res.status);
    url = await check(next.href);
  }
}

/** The chunks of `body`, refusing (with `tooLarge()`) as soon as they pass `max` bytes. */
export async function readCapped(
  body: AsyncIterable<Uint8Array> | null | undefined,
  max: number,
  tooLarge: () => Error,
): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body ?? []) {
    size += chunk.length;
    if (size > max) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** The whole resource's size: from `Content-Range: bytes a-b/N` (a range answer) or Content-Length (a full one). */
export function totalSize(res: Pick<AnyResponse, 'status' | 'headers'>): number | null {
  const range = /\/(\d+)\s*$/.exec(res.headers.get('content-range') ?? '');
  if (range) return Number(range[1]);
  const length = res.status === 200 ? Number(res.headers.get('content-length') ?? NaN) : NaN;
  return Number.isFinite(length) ? length : null;
}
