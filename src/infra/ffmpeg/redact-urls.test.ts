import { describe, expect, it } from 'vitest';
import { redactUrls } from './redact-urls.ts';

const OLD = /[a-z][a-z0-9+.-]*:\/\/\S+/gi;

describe('redactUrls', () => {
  it('answers as the pattern it replaces', () => {
    for (const line of [
      'https://r1.googlevideo.com/videoplayback?sig=abc: Server returned 403 Forbidden',
      'Error opening input (http://a/b) and hls+https://c.d/e.m3u8 too',
      'no url here',
      '://nothing before',
      '1http://x starts with a digit',
      'a://',
      'x-y.z+w://host/path tail',
      'two http://a http://b',
      '',
    ])
      expect(redactUrls(line)).toBe(line.replace(OLD, '<url>'));
  });
});
