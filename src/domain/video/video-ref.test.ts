import { describe, expect, it } from 'vitest';
import { ServiceError } from '../errors.ts';
import { parseVideoRef, VIDEO_ID_PATTERN } from './video-ref.ts';

const ID = 'dQw4w9WgXcQ';

function invalidMessage(ref: { url?: string; videoId?: string }): string {
  try {
    parseVideoRef(ref);
  } catch (e) {
    expect(e).toBeInstanceOf(ServiceError);
    expect((e as ServiceError).code).toBe('INVALID_REQUEST');
    return (e as ServiceError).message;
  }
  throw new Error(`expected INVALID_REQUEST for ${JSON.stringify(ref)}`);
}

describe('parseVideoRef: accepted forms', () => {
  it.each([
    `https://www.youtube.com/watch?v=${ID}`,
    `http://www.youtube.com/watch?v=${ID}`,
    `https://youtube.com/watch?v=${ID}`,
    `www.youtube.com/watch?v=${ID}`,
    `youtube.com/watch?v=${ID}`,
    `//www.youtube.com/watch?v=${ID}`,
    `https://m.youtube.com/watch?v=${ID}`,
    `https://music.youtube.com/watch?v=${ID}&feature=share`,
    `https://www.youtube.com/watch?feature=youtu.be&v=${ID}`,
    `https://www.youtube.com/watch?app=desktop&v=${ID}&t=42s`,
    `https://www.youtube.com/watch?v=${ID}&t=1m2s`,
    `https://www.youtube.com/watch?v=${ID}#t=30`,
    `https://www.youtube.com/watch?v=${ID}&list=PLx0sYbCqOb8TBPRdmBHs5Iftvv9TPboYG&index=3`,
    `https://WWW.YOUTUBE.COM/watch?v=${ID}`,
    `https://www.youtube.com./watch?v=${ID}`,
    `https://youtu.be/${ID}`,
    `youtu.be/${ID}?t=10`,
    `https://youtu.be/${ID}?si=abcDEF123&t=5`,
    `https://www.youtube.com/shorts/${ID}`,
    `https://youtube.com/shorts/${ID}?feature=share`,
    `https://www.youtube.com/embed/${ID}?start=10`,
    `https://www.youtube.com/live/${ID}?si=xyz`,
    `https://www.youtube.com/v/${ID}?version=3`,
    `https://www.youtube-nocookie.com/embed/${ID}?rel=0`,
    `https://youtube-nocookie.com/embed/${ID}`,
    `https://www.youtube.com:443/watch?v=${ID}`,
    `  https://youtu.be/${ID}  `,
    ID,
  ])('%s', (url) => {
    expect(parseVideoRef({ url })).toBe(ID);
  });

  it('accepts ids with - and _', () => {
    expect(parseVideoRef({ url: 'https://youtu.be/_PL2HJKxnOM' })).toBe('_PL2HJKxnOM');
    expect(parseVideoRef({ videoId: 'N-yVic7BbY0' })).toBe('N-yVic7BbY0');
  });

  it('accepts a bare videoId', () => {
    expect(parseVideoRef({ videoId: ID })).toBe(ID);
    expect(parseVideoRef({ videoId: ` ${ID} ` })).toBe(ID);
  });

  it('exports a pattern for zod', () => {
    expect(VIDEO_ID_PATTERN.test(ID)).toBe(true);
    expect(VIDEO_ID_PATTERN.test(`${ID}x`)).toBe(false);
    expect(VIDEO_ID_PATTERN.test('short')).toBe(false);
  });
});

describe('parseVideoRef: rejected input', () => {
  it('needs exactly one of url and videoId', () => {
    expect(invalidMessage({})).toMatch(/required/);
    expect(invalidMessage({ url: '  ', videoId: '' })).toMatch(/required/);
    expect(invalidMessage({ url: `https://youtu.be/${ID}`, videoId: ID })).toMatch(/not both/);
  });

  it.each(['short', `${ID}x`, 'dQw4w9WgXc!', 'https://youtu.be/x'])('rejects bad videoId %s', (videoId) => {
    expect(invalidMessage({ videoId })).toMatch(/not a YouTube video id/);
  });

  it.each([
    [`https://youtube.com.evil.com/watch?v=${ID}`, /not a YouTube host/],
    [`https://evil.com/watch?v=${ID}`, /not a YouTube host/],
    [`https://notyoutube.com/watch?v=${ID}`, /not a YouTube host/],
    [`https://youtu.be.evil.com/${ID}`, /not a YouTube host/],
    [`https://evil.com/?u=https://youtube.com/watch?v=${ID}`, /not a YouTube host/],
    [`https://www.youtube.com@evil.com/watch?v=${ID}`, /user name or password/],
    [`https://user:pass@www.youtube.com/watch?v=${ID}`, /user name or password/],
    [`https://www.youtube.com:8080/watch?v=${ID}`, /port/],
    [`ftp://www.youtube.com/watch?v=${ID}`, /scheme/],
    [`javascript:alert(1)//www.youtube.com/watch?v=${ID}`, /scheme/],
    ['https://www.youtube.com/watch', /does not contain a video id/],
    ['https://www.youtube.com/channel/UCBR8-60-B28hp2BmDPdntcQ', /does not contain a video id/],
    ['https://www.youtube.com/playlist?list=PL123', /does not contain a video id/],
    ['https://youtu.be/', /does not contain a video id/],
    ['https://www.youtube.com/watch?v=tooShort', /not a valid YouTube video id/],
    [`https://www.youtube.com/watch?v=${ID}extra`, /not a valid YouTube video id/],
    [`https://youtube-nocookie.com/watch?v=${ID}`, /does not contain a video id/],
    ['not a url at all', /not a valid URL/],
    ['http://', /not a valid URL/],
  ])('rejects %s', (url, message) => {
    expect(invalidMessage({ url })).toMatch(message);
  });
});
