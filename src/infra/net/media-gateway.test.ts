import { describe, expect, it } from 'vitest';
import { isPlaylist, rewritePlaylist, safeDecode } from './media-gateway.ts';

const base = new URL('https://media.example/live/index.m3u8');
const via = (abs: string) => `http://gw/${encodeURIComponent(abs)}`;

describe('rewritePlaylist', () => {
  it('sends URI lines and URI= attributes, quoted or not, through the gateway', () => {
    const out = rewritePlaylist(
      [
        '#EXTM3U',
        '#EXT-X-KEY:METHOD=AES-128,URI=http://169.254.169.254/key,IV=0x1',
        '#EXT-X-MAP:URI="init.mp4"',
        '#EXTINF:10,',
        'seg1.ts',
      ].join('\n'),
      base,
      via,
    ).split('\n');
    expect(out).toEqual([
      '#EXTM3U',
      `#EXT-X-KEY:METHOD=AES-128,URI="${via('http://169.254.169.254/key')}",IV=0x1`,
      `#EXT-X-MAP:URI="${via('https://media.example/live/init.mp4')}"`,
      '#EXTINF:10,',
      via('https://media.example/live/seg1.ts'),
    ]);
  });

  it('breaks lines where ffmpeg does (CR and NUL too), so no URI hides behind a comment', () => {
    const out = rewritePlaylist('#EXTM3U\r#EXTINF:10,\rhttp://10.0.0.1/a.ts\0http://10.0.0.1/b.ts', base, via);
    expect(out.split('\n')).toEqual([
      '#EXTM3U',
      '#EXTINF:10,',
      via('http://10.0.0.1/a.ts'),
      via('http://10.0.0.1/b.ts'),
    ]);
  });

  it('drops a line whose URI cannot be rewritten instead of keeping it', () => {
    const failing = (abs: string) => {
      if (abs.includes('bad')) throw new URIError('URI malformed');
      return via(abs);
    };
    const out = rewritePlaylist(
      '#EXTM3U\n#EXT-X-MAP:URI=http://10.0.0.1/bad.mp4\nhttp://[oops/x.ts\nhttp://10.0.0.1/bad.ts\ngood.ts',
      base,
      failing,
    );
    expect(out.split('\n')).toEqual(['#EXTM3U', via('https://media.example/live/good.ts')]);
  });
});

describe('isPlaylist', () => {
  it('is #EXTM3U at the start, after an optional BOM and whitespace, whatever the content type', () => {
    expect(isPlaylist(Buffer.from('#EXTM3U\n#EXTINF:1,\nx.ts'))).toBe(true);
    expect(isPlaylist(Buffer.from('\ufeff \r\n#EXTM3U\n'))).toBe(true);
    expect(isPlaylist(Buffer.from([0x47, 0x40, 0x11, 0x10]))).toBe(false);
    expect(isPlaylist(Buffer.from('<html>#EXTM3U'))).toBe(false);
    expect(isPlaylist(Buffer.alloc(0))).toBe(false);
  });
});

it('safeDecode keeps a segment with broken percent-encoding as it is', () => {
  expect(safeDecode('a%20b.mp3')).toBe('a b.mp3');
  expect(safeDecode('a%ZZ.mp3')).toBe('a%ZZ.mp3');
});
