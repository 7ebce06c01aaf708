// Streams when YouTube offers only SABR formats (adaptive formats without a URL or cipher) plus the progressive
// itag 18, as some sessions get from MWEB (yt-dlp/yt-dlp#17666): frames and audio take itag 18. MWEB is asked last
// in the streams chain, after the watch page. Over recorded answers through the real youtubei.js.
import { describe, expect, it } from 'vitest';
import type { MintedToken, PoTokenProvider } from '../../src/domain/youtube/po-token.ts';
import { DEFAULT_CHAINS, resolveChains } from '../../src/infra/youtube/client-chains.ts';
import { createYoutubeSource } from '../../src/infra/youtube/create-youtube-source.ts';
import { fakeYoutube, html, json } from '../support/fake-youtube.ts';
import { readShared, sharedAvailable } from '../support/fixture-files.ts';

const BASE = 'http://127.0.0.1:1';
const VIDEO = 'it3OtbTxQk0';
const TOKEN = 'MnQ0eXBlZC1ieS1hLXRlc3QtYmluZGluZy1mb3ItdGhpcy12aWRlbw';

// The recorded answer whose six adaptive formats have neither URL nor cipher (SABR only) and whose itag 18 has a URL:
// ANDROID's, which reel_item_watch wraps as {"playerResponse": ...}; /player answers it bare.
const sabrOnly = () =>
  json(
    (
      JSON.parse(readShared('reel-item-watch.android.captions.asr-only.it3OtbTxQk0.json')) as {
        playerResponse: unknown;
      }
    ).playerResponse,
  );

const provider: PoTokenProvider = {
  kind: 'test',
  mint: async (): Promise<MintedToken> => ({ token: TOKEN, expiresAt: new Date(Date.now() + 3_600_000) }),
};

describe('the streams chain', () => {
  it('asks MWEB last, after the watch page', () => {
    expect(DEFAULT_CHAINS.streams).toEqual(['VISIONOS', 'WEB', 'WATCH_PAGE', 'MWEB']);
    expect(resolveChains({}, true).streams.at(-1)).toBe('MWEB');
    // Without a way to mint PO tokens MWEB is left out, as every web client is.
    expect(resolveChains({}, false).streams).toEqual(['VISIONOS', 'WATCH_PAGE']);
  });
});

describe.skipIf(!sharedAvailable)('only SABR formats and itag 18', () => {
  it('MWEB, after a watch page that failed, serves frames and audio from itag 18, with its PO token', async () => {
    const yt = fakeYoutube({
      player: (client) => (client === 'MWEB' ? sabrOnly() : json(readShared('player.bot-check.login-required.json'))),
      watch: () => html('<html></html>', 404),
      other: (url) =>
        url.pathname.endsWith('/videoplayback') ? { status: 206, body: 'x' } : { status: 404, body: '' },
    });
    const src = createYoutubeSource({
      baseUrl: BASE,
      fetch: yt.fetch,
      poTokens: provider,
      chains: { streams: ['WATCH_PAGE', 'MWEB'] },
    });
    const frames = await src.getFrameSource(VIDEO, 320);
    expect(yt.calls.slice(0, 3)).toEqual(['GET /watch', `PLAYER MWEB ${VIDEO}`, 'GET /videoplayback']);
    if (frames.kind !== 'stream') throw new Error('expected a stream');
    const url = new URL(frames.url);
    expect([url.searchParams.get('itag'), url.searchParams.get('pot')]).toEqual(['18', TOKEN]);
    expect([frames.width, frames.height]).toEqual([640, 360]);

    const audio = await src.getAudioSource(VIDEO);
    const audioUrl = new URL(audio.url);
    expect([audioUrl.searchParams.get('itag'), audioUrl.searchParams.get('pot')]).toEqual(['18', TOKEN]);
    expect(audio.seconds).toBeCloseTo(145.24, 2);
  });

  it('an adaptive format with a URL is still preferred to itag 18', async () => {
    const yt = fakeYoutube({
      player: () => json(readShared('player.captions.GJLlxj_dtq8.json')),
      other: () => ({ status: 206, body: 'x' }),
    });
    const src = createYoutubeSource({ baseUrl: BASE, fetch: yt.fetch, chains: { streams: ['ANDROID'] } });
    const frames = await src.getFrameSource('GJLlxj_dtq8', 320);
    if (frames.kind !== 'stream') throw new Error('expected a stream');
    expect(new URL(frames.url).searchParams.get('itag')).not.toBe('18');
    const audio = await src.getAudioSource('GJLlxj_dtq8');
    expect(new URL(audio.url).searchParams.get('mime')).toMatch(/^audio\//);
  });
});
