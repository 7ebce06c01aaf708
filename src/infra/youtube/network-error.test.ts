// Network failures keep their cause, and a host that does not resolve ends the client chain at once.
import { describe, expect, it } from 'vitest';
import { createYoutubeSource } from './create-youtube-source.ts';
import { describeNetworkError } from './network-error.ts';
import { fakeYoutube } from '../../../test/support/fake-youtube.ts';

/** What Node's fetch (undici) throws: `TypeError: fetch failed` with the system error as its cause. */
const fetchFailed = (code: string, message = `${code} www.youtube.com`) =>
  new TypeError('fetch failed', { cause: Object.assign(new Error(message), { code }) });

describe('describeNetworkError', () => {
  it.each([
    [
      fetchFailed('ENOTFOUND', 'getaddrinfo ENOTFOUND www.youtube.com'),
      'host-not-found',
      'host not found (ENOTFOUND): www.youtube.com does not resolve (is this machine offline, or the name blocked?)',
    ],
    [
      fetchFailed('EAI_AGAIN'),
      'dns-unavailable',
      'DNS lookup of www.youtube.com failed (EAI_AGAIN): no DNS server answered',
    ],
    [fetchFailed('ECONNREFUSED'), 'refused', 'connection to www.youtube.com refused (ECONNREFUSED)'],
    [fetchFailed('ECONNRESET'), 'reset', 'connection to www.youtube.com was reset (ECONNRESET)'],
    [fetchFailed('UND_ERR_CONNECT_TIMEOUT'), 'timeout', 'www.youtube.com did not answer within 15 s'],
    [
      Object.assign(new DOMException('The operation was aborted due to timeout', 'TimeoutError')),
      'timeout',
      'www.youtube.com did not answer within 15 s',
    ],
    [
      fetchFailed('CERT_HAS_EXPIRED', 'certificate has expired'),
      'tls',
      'TLS with www.youtube.com failed (CERT_HAS_EXPIRED): certificate has expired',
    ],
    [new TypeError('fetch failed'), 'other', 'www.youtube.com: fetch failed'],
  ])('%s', (err, kind, message) => {
    const e = describeNetworkError(err, 'www.youtube.com', 15_000);
    expect({ kind: e.kind, message: e.message }).toEqual({ kind, message });
    expect(e.cause).toBe(err);
  });
});

describe('the client chain', () => {
  it('stops at the first client when YouTube does not resolve, and says so', async () => {
    const yt = fakeYoutube({
      player: () => fetchFailed('ENOTFOUND', 'getaddrinfo ENOTFOUND www.youtube.com'),
      watch: () => fetchFailed('ENOTFOUND'),
    });
    const src = createYoutubeSource({
      baseUrl: 'https://www.youtube.com',
      fetch: yt.fetch,
      clients: ['VISIONOS', 'ANDROID', 'WATCH_PAGE'],
    });
    await expect(src.getVideo('OwnVideo001')).rejects.toMatchObject({
      code: 'EXTRACTION_FAILED',
      message:
        'Could not get this video from YouTube: network error: host not found (ENOTFOUND): www.youtube.com does not resolve (is this machine offline, or the name blocked?)',
    });
    expect(yt.calls).toHaveLength(1);
  });

  it('still tries the other clients after a refused or reset connection (it may be one path only)', async () => {
    const yt = fakeYoutube({ player: () => fetchFailed('ECONNRESET'), watch: () => fetchFailed('ECONNRESET') });
    const src = createYoutubeSource({
      baseUrl: 'https://www.youtube.com',
      fetch: yt.fetch,
      clients: ['VISIONOS', 'ANDROID', 'WATCH_PAGE'],
    });
    await expect(src.getVideo('OwnVideo001')).rejects.toMatchObject({
      code: 'EXTRACTION_FAILED',
      message: expect.stringContaining('connection to www.youtube.com was reset (ECONNRESET)'),
    });
    expect(yt.calls).toHaveLength(3);
  });
});

describe('proxy credentials', () => {
  it('a network failure quoting its proxy URL keeps the user and password out of the message', () => {
    const err = new TypeError('fetch failed', {
      cause: Object.assign(new Error('connect to socks5://egress-user:egress-secret@10.0.0.5:1080 failed'), {
        code: 'ERR_SOCKS_FAILED',
      }),
    });
    const message = describeNetworkError(err, 'www.youtube.com', 15_000).message;
    expect(message).not.toContain('egress-secret');
    expect(message).not.toContain('egress-user');
    expect(message).toContain('socks5://***@10.0.0.5:1080');
  });
});
