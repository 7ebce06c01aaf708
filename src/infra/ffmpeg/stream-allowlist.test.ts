import { describe, expect, it } from 'vitest';

import { assertAllowedStreamUrl, isAllowedStreamUrl } from './stream-allowlist.ts';

const allow = { extraOrigins: ['http://127.0.0.1:8123', 'https://yt.example.test/'] };

describe('assertAllowedStreamUrl', () => {
  it.each([
    'https://rr3---sn-4g5e6nz7.googlevideo.com/videoplayback?expire=1&itag=18&sig=abc',
    'https://i.ytimg.com/sb/dQw4w9WgXcQ/storyboard3_L2/M0.jpg?sqp=x&sigh=y',
    'https://i9.ytimg.com/sb/x/storyboard3_L1/M1.jpg',
    'https://www.youtube.com/api/timedtext?v=x',
    'HTTPS://RR1.GOOGLEVIDEO.COM/videoplayback',
    'http://127.0.0.1:8123/videoplayback?x=1',
    'https://yt.example.test/sb/1.jpg',
  ])('allows %s', (url) => {
    expect(isAllowedStreamUrl(url, allow)).toBe(true);
  });

  it.each([
    ['file:///etc/passwd'],
    ['/etc/passwd'],
    ['etc/passwd'],
    ['concat:/etc/passwd|/etc/hosts'],
    ['subfile,,start,0,end,100,,:/etc/passwd'],
    ['data:video/mp4;base64,AAAA'],
    ['pipe:0'],
    ['http://rr1.googlevideo.com/videoplayback'], // plain http to a YouTube host
    ['https://googlevideo.com/videoplayback'], // the bare apex is no media host
    ['https://evilgooglevideo.com/x'],
    ['https://googlevideo.com.evil.test/x'],
    ['https://rr1.googlevideo.com.evil.test/x'],
    ['https://rr1.googlevideo.com./x'],
    ['https://evil.test/x?u=.googlevideo.com'],
    ['https://evil.test#.googlevideo.com'],
    ['https://rr1.googlevideo.com@evil.test/x'],
    ['https://user:pw@rr1.googlevideo.com/x'],
    ['http://user@127.0.0.1:8123/x'], // an extra origin, but with credentials
    ['https://rr1.googlevideo.com:8443/x'],
    ['https://127.0.0.1/x'],
    ['https://[::1]/x'],
    ['http://127.0.0.1:8124/x'], // another port than the extra origin's
    ['http://localhost:8123/x'], // same host by another name
    ['https://127.0.0.1:8123/x'], // another scheme
    ['gopher://rr1.googlevideo.com/x'],
    [''],
  ])('refuses %s', (url) => {
    expect(() => assertAllowedStreamUrl(url, allow)).toThrow(expect.objectContaining({ code: 'FRAME_FAILED' }));
  });

  it('returns the normalised URL to open, not the raw string', () => {
    expect(assertAllowedStreamUrl('HTTPS://RR1.GoogleVideo.com/a b', allow).href).toBe(
      'https://rr1.googlevideo.com/a%20b',
    );
  });

  // Parsers disagree on odd spellings; what is opened is the href, so the check and the opener agree.
  it.each([
    ['http://2130706433:8123/x', 'http://127.0.0.1:8123/x'],
    ['https://rr1.googlevideo.com\\@evil.test/x', 'https://rr1.googlevideo.com/@evil.test/x'],
  ])('normalises %s before checking it', (url, href) => {
    expect(assertAllowedStreamUrl(url, allow).href).toBe(href);
  });

  it('never echoes the URL in its message', () => {
    expect(() => assertAllowedStreamUrl('https://evil.test/secret-signature', allow)).toThrow(
      expect.not.objectContaining({ message: expect.stringContaining('secret') }),
    );
  });

  it('ignores extra origins that have no real origin', () => {
    expect(isAllowedStreamUrl('file:///etc/passwd', { extraOrigins: ['file:///etc/passwd', 'not a url'] })).toBe(false);
  });
});
