// Every failure the recorded YouTube answers can produce, through REST (status + the spec's error body) and MCP
// (isError with the same code and message), and invalid input. Nothing is ever charged for a failure.
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedAvailable } from '../support/fixture-files.ts';
import { mcpClient, mcpError, rest } from '../support/clients.ts';
import { isCaptions } from '../support/loopback-youtube.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { balanceOf, ID, startRecordedHarness, type Harness } from './recorded-youtube.ts';

let h: Harness;
beforeAll(async () => {
  // These cases check how each YouTube answer is classified, one after another on one server: cooling the only
  // egress identity after the bot check would turn every later case into 503 (pacing has its own tests).
  if (sharedAvailable) h = await startRecordedHarness({ YOUTUBE_COOLDOWN_SECONDS: '0' });
});
afterAll(() => h?.close());

type Failure = [name: string, input: Record<string, string>, status: number, code: string, message: RegExp];

/** Asks REST and MCP the same thing; both must fail the same way, charge nothing and download no captions. */
async function expectFailure(s: TestServer, [, input, status, code, message]: Failure) {
  const { key } = await s.newKey({ credits: 10 });
  const client = await mcpClient(s.url, key);
  const downloads = h.yt.count(isCaptions());
  // Both at once: the second joins the first's extraction job (same key), so a failure that YouTube answers slowly
  // (the 502s retry with backoff) is paid for once.
  const [r, tool]: [Awaited<ReturnType<typeof rest>>, any] = await Promise.all([
    rest(s.url, 'POST', '/subtitles', { key, body: input }),
    client.callTool({ name: 'get_video_subtitles', arguments: input }),
  ]);
  await client.close();
  expect(r.status).toBe(status);
  expect(r.json).toEqual({ error: { code, message: expect.stringMatching(message) } });
  expect(r.headers.get('content-type')).toMatch(/^application\/json/);
  expect(tool.isError).toBe(true);
  expect(mcpError(tool)).toEqual(r.json.error);
  expect(await balanceOf(s, key)).toBe(10);
  expect(h.yt.count(isCaptions())).toBe(downloads);
  return r.json.error.message as string;
}

const VIDEO_FAILURES: Failure[] = [
  ['no captions', { videoId: ID.noCaptions }, 422, 'NO_SUBTITLES', /^This video has no subtitles$/],
  [
    'no captions, mode=native',
    { videoId: ID.noCaptions, mode: 'native' },
    422,
    'NO_SUBTITLES',
    /^This video has no subtitles$/,
  ],
  [
    'mode=generate on a server without a speech-to-text engine',
    { videoId: ID.noCaptions, mode: 'generate' },
    501,
    'STT_NOT_CONFIGURED',
    /^Speech-to-text is not available on this server/,
  ],
  [
    'no captions (a past live stream)',
    { videoId: ID.noCaptionsLiveReplay, lang: 'en' },
    422,
    'NO_SUBTITLES',
    /no subtitles/,
  ],
  [
    'no track in the language asked',
    { videoId: ID.asrOnlyFr, lang: 'en' },
    422,
    'NO_SUBTITLES',
    /^No subtitles in "en" for this video\. Available: fr \(auto-generated\)$/,
  ],
  ['unavailable', { videoId: ID.unavailable }, 404, 'VIDEO_NOT_FOUND', /This video is unavailable/],
  ['nonexistent (error answer)', { videoId: ID.nonexistent }, 404, 'VIDEO_NOT_FOUND', /does not exist/],
  ['nonexistent (empty answer)', { videoId: ID.nonexistentEmpty }, 404, 'VIDEO_NOT_FOUND', /returned nothing/],
  ['private', { videoId: ID.private }, 404, 'VIDEO_NOT_FOUND', /private/i],
  ['age-restricted', { videoId: ID.ageRestricted }, 403, 'VIDEO_AGE_RESTRICTED', /age-restricted/],
  ['members-only', { videoId: ID.membersOnly }, 403, 'VIDEO_MEMBERS_ONLY', /members/],
  ['music premium', { videoId: ID.musicPremium }, 403, 'VIDEO_PAID', /Premium/],
  [
    'region-blocked',
    { videoId: ID.regionBlocked },
    403,
    'VIDEO_REGION_BLOCKED',
    /not made this video available in your country/,
  ],
  ['live right now', { videoId: ID.liveNow }, 409, 'VIDEO_LIVE', /live stream in progress/],
  ['scheduled, not started', { videoId: ID.upcoming }, 409, 'VIDEO_UPCOMING', /will begin in 18 hours/],
];

const UPSTREAM_FAILURES: Failure[] = [
  ['bot check on every client and the watch page', { videoId: ID.botCheck }, 502, 'EXTRACTION_FAILED', /not a bot/],
  ['HTTP 429 captcha page', { videoId: ID.rateLimited }, 502, 'EXTRACTION_FAILED', /rate-limiting/],
  ['cookie-consent page', { videoId: ID.consent }, 502, 'EXTRACTION_FAILED', /cookie-consent page/],
];

describe.skipIf(!sharedAvailable)('what YouTube says about the video', () => {
  it.each(VIDEO_FAILURES)('%s', async (...failure) => {
    await expectFailure(h.s, failure);
  });

  it('a live stream still has info (free), only its transcript is refused', async () => {
    const { key } = await h.s.newKey();
    const r = await rest(h.s.url, 'GET', `/videos/${ID.liveNow}`, { key });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({
      title: 'lofi hip hop radio 📚 beats to relax/study to',
      isLive: true,
      isLiveContent: true,
      duration: 0,
      channelName: 'Lofi Girl',
    });
  });

  it('info and tracks fail with the same codes as subtitles', async () => {
    const { key } = await h.s.newKey();
    for (const [videoId, status, code] of [
      [ID.upcoming, 409, 'VIDEO_UPCOMING'],
      [ID.ageRestricted, 403, 'VIDEO_AGE_RESTRICTED'],
      [ID.nonexistent, 404, 'VIDEO_NOT_FOUND'],
    ] as const) {
      for (const path of [`/videos/${videoId}`, `/videos/${videoId}/tracks`]) {
        const r = await rest(h.s.url, 'GET', path, { key });
        expect([path, r.status, r.json.error.code]).toEqual([path, status, code]);
      }
    }
  });
});

describe.skipIf(!sharedAvailable)('YouTube cannot be read', () => {
  it.each(UPSTREAM_FAILURES)('%s', async (...failure) => {
    const message = await expectFailure(h.s, failure);
    expect(message).toMatch(/^Could not get this video from YouTube: /);
  });

  it('connection refused', async () => {
    const port = await closedPort();
    const s = await startTestServer({ YOUTUBE_BASE_URL: `http://127.0.0.1:${port}` });
    try {
      await expectFailure(s, ['refused', { videoId: ID.captions9 }, 502, 'EXTRACTION_FAILED', /network error/]);
    } finally {
      await s.close();
    }
  });
});

describe.skipIf(!sharedAvailable)('invalid requests never reach YouTube', () => {
  const INVALID: Failure[] = [
    [
      'a host that is not YouTube',
      { url: `https://evil.example/watch?v=${ID.captions9}` },
      400,
      'INVALID_REQUEST',
      /"evil\.example" is not a YouTube host/,
    ],
    [
      'a look-alike host',
      { url: `https://youtube.com.evil.example/watch?v=${ID.captions9}` },
      400,
      'INVALID_REQUEST',
      /"youtube\.com\.evil\.example" is not a YouTube host/,
    ],
    [
      'credentials in the URL',
      { url: `https://youtube.com@evil.example/watch?v=${ID.captions9}` },
      400,
      'INVALID_REQUEST',
      /user name or password/,
    ],
    [
      'a YouTube URL without an id',
      { url: 'https://www.youtube.com/feed/trending' },
      400,
      'INVALID_REQUEST',
      /does not contain a video id/,
    ],
    [
      'a malformed id in the URL',
      { url: 'https://www.youtube.com/watch?v=short' },
      400,
      'INVALID_REQUEST',
      /"short" in the URL is not a valid YouTube video id/,
    ],
    [
      'not a URL',
      { url: 'not a url at all' },
      400,
      'INVALID_REQUEST',
      /"not a url at all" is not a valid URL or video id/,
    ],
    ['a malformed videoId', { videoId: 'abc' }, 400, 'INVALID_REQUEST', /^videoId "abc" is not a YouTube video id/],
    ['neither url nor videoId', {}, 400, 'INVALID_REQUEST', /^Either url or videoId is required$/],
    [
      'both url and videoId',
      { url: `https://youtu.be/${ID.captions9}`, videoId: ID.captions9 },
      400,
      'INVALID_REQUEST',
      /^Give either url or videoId, not both$/,
    ],
    [
      'a malformed lang',
      { videoId: ID.captions9, lang: 'english!' },
      400,
      'INVALID_REQUEST',
      /^lang: must be a BCP 47 language code/,
    ],
  ];

  it.each(INVALID)('%s', async (...failure) => {
    const before = h.yt.requests.length;
    await expectFailure(h.s, failure);
    expect(h.yt.requests.length).toBe(before);
  });

  it('a malformed id in the info and tracks paths', async () => {
    const { key } = await h.s.newKey();
    for (const path of ['/videos/abc', '/videos/abc/tracks']) {
      const r = await rest(h.s.url, 'GET', path, { key });
      expect(r.status).toBe(400);
      expect(r.json).toEqual({
        error: { code: 'INVALID_REQUEST', message: expect.stringMatching(/^videoId "abc" is not a YouTube video id/) },
      });
    }
  });
});

/** A port nothing listens on: bound, read, released. */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}
