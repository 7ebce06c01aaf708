import { ServiceError } from '../../domain/errors.ts';
import { assertAllowedStreamUrl, type StreamAllowlist } from './stream-allowlist.ts';

const MAX_REDIRECTS = 5;

/**
 * GETs `url`, following redirects only to allowed URLs (each hop is checked before it is requested). With `probe`
 * it asks for one byte and returns the final URL without the body: the preflight for a stream, whose final URL is
 * then handed to ffmpeg. Otherwise it returns the body, refusing more than `maxBytes`.
 */
export async function fetchAllowed(
  url: string,
  opts: { allow: StreamAllowlist; signal: AbortSignal; probe?: boolean; maxBytes?: number },
): Promise<{ url: URL; body: Buffer | null; size?: number | null }> {
  let current = assertAllowedStreamUrl(url, opts.allow);
  for (let hop = 0; ; hop++) {
    const res = await fetch(current, {
      redirect: 'manual',
      signal: opts.signal,
      headers: opts.probe ? { range: 'bytes=0-0' } : {},
    }).catch((err: unknown) => {
      if (opts.signal.aborted) throw opts.signal.reason;
      throw new ServiceError('FRAME_FAILED', `frame source unreachable: ${(err as Error).message}`);
    });
    if (res.status >= 300 && res.status < 400) {
      await res.body?.cancel();
      const location = res.headers.get('location');
      if (!location) throw new ServiceError('FRAME_FAILED', `frame source answered ${res.status} without a Location`);
      if (hop >= MAX_REDIRECTS) throw new ServiceError('FRAME_FAILED', 'frame source redirected too many times');
      current = assertAllowedStreamUrl(new URL(location, current).href, opts.allow);
      continue;
    }
    if (!res.ok) {
      await res.body?.cancel();
      throw new ServiceError('FRAME_FAILED', `frame source answered HTTP ${res.status}`);
    }
    if (opts.probe) {
      await res.body?.cancel();
      return { url: current, body: null, size: totalSize(res) };
    }
    return { url: current, body: await readCapped(res, opts.maxBytes ?? 10 * 1024 * 1024) };
  }
}

async function readCapped(res: Response, maxBytes: number): Promise<Buffer> {
  const declared = Number(res.headers.get('content-length') ?? 0);
  if (declared > maxBytes) {
    await res.body?.cancel();
    throw new ServiceError('FRAME_FAILED', 'frame source too large');
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of res.body ?? []) {
    size += chunk.length;
    if (size > maxBytes) throw new ServiceError('FRAME_FAILED', 'frame source too large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** The whole resource's size: from `Content-Range: bytes 0-0/N` (a range answer) or Content-Length (a full one). */
function totalSize(res: Response): number | null {
  const range = /\/(\d+)\s*$/.exec(res.headers.get('content-range') ?? '');
  if (range) return Number(range[1]);
  const length = res.status === 200 ? Number(res.headers.get('content-length') ?? NaN) : NaN;
  return Number.isFinite(length) ? length : null;
}
