// Classification on small hand-made player responses; every recorded response is covered in
// test/youtube/youtube-fixtures.test.ts.
import { describe, expect, it } from 'vitest';
import { classifyPlayability } from './classify-playability.ts';
import { unwrapPlayerResponse, type RawPlayerResponse } from './player-response.ts';
import { classifyHtmlPage, extractPlayerResponse } from './watch-page.ts';

const details = { videoId: 'OwnVideo001', lengthSeconds: '60' };
const unplayable = (reason: string, extra: object = {}): RawPlayerResponse => ({
  playabilityStatus: { status: 'UNPLAYABLE', reason, ...extra },
  videoDetails: details,
});

describe('classifyPlayability', () => {
  it.each<[string, RawPlayerResponse, string, boolean]>([
    ['empty object', {}, 'VIDEO_NOT_FOUND', false],
    [
      'ERROR',
      { playabilityStatus: { status: 'ERROR', reason: 'This video has been removed by the uploader' } },
      'VIDEO_NOT_FOUND',
      false,
    ],
    [
      'bot check',
      { playabilityStatus: { status: 'LOGIN_REQUIRED', reason: 'Sign in to confirm you’re not a bot' } },
      'EXTRACTION_FAILED',
      true,
    ],
    [
      'age gate marker in any language',
      {
        playabilityStatus: { status: 'LOGIN_REQUIRED', reason: 'Melde dich an', desktopLegacyAgeGateReason: 1 },
        videoDetails: details,
      },
      'VIDEO_AGE_RESTRICTED',
      false,
    ],
    [
      'private',
      { playabilityStatus: { status: 'LOGIN_REQUIRED', messages: ['This is a private video.'] } },
      'VIDEO_NOT_FOUND',
      false,
    ],
    [
      'unexplained sign-in',
      { playabilityStatus: { status: 'LOGIN_REQUIRED', reason: 'Sign in' } },
      'EXTRACTION_FAILED',
      true,
    ],
    [
      'members',
      unplayable('Join this channel to get access to members-only content like this video, and other exclusive perks.'),
      'VIDEO_MEMBERS_ONLY',
      false,
    ],
    ['music premium', unplayable('This video is only available to Music Premium members'), 'VIDEO_PAID', false],
    [
      'rental offer',
      unplayable('x', { errorScreen: { playerLegacyDesktopYpcOfferRenderer: {} } }),
      'VIDEO_PAID',
      false,
    ],
    [
      'region',
      unplayable('The uploader has not made this video available in your country'),
      'VIDEO_REGION_BLOCKED',
      false,
    ],
    ['not available for this client', unplayable('This video is not available'), 'VIDEO_UNPLAYABLE', true],
    [
      'embedding disabled',
      unplayable('Playback on other websites has been disabled by the video owner'),
      'VIDEO_UNPLAYABLE',
      true,
    ],
    ['other unplayable', unplayable('This live stream recording is not available.'), 'VIDEO_UNPLAYABLE', false],
    [
      'upcoming',
      {
        playabilityStatus: { status: 'LIVE_STREAM_OFFLINE', reason: 'Premieres in 2 hours' },
        videoDetails: { ...details, isUpcoming: true, lengthSeconds: '0' },
      },
      'VIDEO_UPCOMING',
      false,
    ],
    [
      'OK but upcoming',
      { playabilityStatus: { status: 'OK' }, videoDetails: { ...details, isUpcoming: true } },
      'VIDEO_UPCOMING',
      false,
    ],
    ['unknown status', { playabilityStatus: { status: 'SOMETHING_NEW' } }, 'EXTRACTION_FAILED', true],
  ])('%s', (_name, raw, code, retryable) => {
    const verdict = classifyPlayability(raw);
    expect(verdict.ok).toBe(false);
    if (!verdict.ok) expect([verdict.error.code, verdict.retryable]).toEqual([code, retryable]);
  });

  it('passes playable and live videos and metadata-only answers', () => {
    expect(classifyPlayability({ playabilityStatus: { status: 'OK' }, videoDetails: details })).toEqual({
      ok: true,
      live: false,
    });
    expect(
      classifyPlayability({ playabilityStatus: { status: 'OK' }, videoDetails: { ...details, isLive: true } }),
    ).toEqual({ ok: true, live: true });
    expect(classifyPlayability({ microformat: { playerMicroformatRenderer: {} }, videoDetails: details }).ok).toBe(
      true,
    );
  });

  it("quotes YouTube's reason in the message", () => {
    const verdict = classifyPlayability(unplayable('The uploader has not made this video available in your country'));
    expect(!verdict.ok && verdict.error.message).toContain(
      'YouTube says: "The uploader has not made this video available in your country"',
    );
  });
});

describe('unwrapPlayerResponse', () => {
  it('handles plain, reel_item_watch-wrapped and pbj-array answers', () => {
    const pr = { playabilityStatus: { status: 'OK' } };
    expect(unwrapPlayerResponse(pr)).toBe(pr);
    expect(unwrapPlayerResponse({ playerResponse: pr })).toBe(pr);
    expect(unwrapPlayerResponse([{ page: 'watch' }, { playerResponse: pr }])).toBe(pr);
    expect(unwrapPlayerResponse(null)).toEqual({});
  });
});

describe('watch pages', () => {
  it('extracts the embedded player response, braces inside strings included', () => {
    const page =
      '<html><script>var ytInitialPlayerResponse = {"a":"}{\\"","playabilityStatus":{"status":"OK"}};var x = 1;</script></html>';
    expect(extractPlayerResponse(page)?.playabilityStatus?.status).toBe('OK');
    expect(extractPlayerResponse('<html>nothing</html>')).toBeUndefined();
  });

  it('names captcha, consent and unknown pages', () => {
    expect(classifyHtmlPage('<form action="/das_captcha"><div class="g-recaptcha"></div></form>').message).toMatch(
      /rate-limiting/,
    );
    expect(classifyHtmlPage('<form action="https://consent.youtube.com/s"></form>').message).toMatch(/cookie-consent/);
    expect(classifyHtmlPage('<html></html>', 503).message).toMatch(/unexpected page \(HTTP 503\)/);
    expect(classifyHtmlPage('<html></html>', 429).code).toBe('EXTRACTION_FAILED');
  });
});
