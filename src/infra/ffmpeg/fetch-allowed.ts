import { ServiceError } from '../../domain/errors.ts';
import { followRedirects, readCapped, totalSize } from '../net/checked-fetch.ts';
import { assertAllowedStreamUrl, type StreamAllowlist } from './stream-allowlist.ts';

/**
 * GETs `url`, following redirects only to allowed URLs (each hop is checked before it is requested). With `probe`
 * it asks for one byte and returns the final URL without the body: the preflight for a stream, whose final URL is
 * then handed to ffmpeg. Otherwise it returns the body, refusing more than `maxBytes`.
 */
export async function fetchAllowed(
  url: string,
  opts: { allow: StreamAllowlist; signal: AbortSignal; probe?: boolean; maxBytes?: number; dispatcher?: object },
): Promise<{ url: URL; body: Buffer | null; size?: number | null }> {
  const { url: final, res } = await followRedirects(
    assertAllowedStreamUrl(url, opts.allow),
    (current) =>
      fetch(current, {
        redirect: 'manual',
        signal: opts.signal,
        headers: opts.probe ? { range: 'bytes=0-0' } : {},
        // The egress identity's proxy (an undici dispatcher), for a URL bound to the address that asked for it.
        ...(opts.dispatcher ? { dispatcher: opts.dispatcher } : {}),
      } as RequestInit).catch((err: unknown) => {
        if (opts.signal.aborted) throw opts.signal.reason;
        throw new ServiceError('FRAME_FAILED', `frame source unreachable: ${(err as Error).message}`);
      }),
    (href) => assertAllowedStreamUrl(href, opts.allow),
    {
      missing: (status) => new ServiceError('FRAME_FAILED', `frame source answered ${status} without a Location`),
      tooMany: () => new ServiceError('FRAME_FAILED', 'frame source redirected too many times'),
    },
  );
  if (!res.ok) {
    await res.body?.cancel();
    throw new ServiceError('FRAME_FAILED', `frame source answered HTTP ${res.status}`);
  }
  if (opts.probe) {
    await res.body?.cancel();
    return { url: final, body: null, size: totalSize(res) };
  }
  const maxBytes = opts.maxBytes ?? 10 * 1024 * 1024;
  const tooLarge = () => new ServiceError('FRAME_FAILED', 'frame source too large');
  if (Number(res.headers.get('content-length') ?? 0) > maxBytes) {
    await res.body?.cancel();
    throw tooLarge();
  }
  return { url: final, body: await readCapped(res.body, maxBytes, tooLarge) };
}
