// Speech-to-text must hear the language actually spoken, never a dub. Crafted players built from the recorded
// multi-audio answer (test/support/dubbed-audio-player.ts says how), through the real youtubei.js parser and the
// streams chain; test/speech/original-audio-service.test.ts takes the same player through the whole service.
import { describe, expect, it } from 'vitest';
import { createYoutubeSource } from '../../src/infra/youtube/create-youtube-source.ts';
import { fakeYoutube, json } from '../support/fake-youtube.ts';
import { sharedAvailable } from '../support/fixture-files.ts';
import { type AudioFormat, DUBBED_VIDEO, dubbedDefaultPlayer } from '../support/dubbed-audio-player.ts';

const BASE = 'http://127.0.0.1:1';
const VIDEO = DUBBED_VIDEO;
const crafted = dubbedDefaultPlayer;

describe.skipIf(!sharedAvailable)('the audio track speech-to-text hears', () => {
  it.each([
    ['tagged acont=original', true],
    ['known by its ".4" track id', false],
  ])('the original (%s) over an AI dub marked default', async (_name, originalTagged) => {
    const player = crafted({ originalTagged });
    const yt = fakeYoutube({
      player: () => json(player),
      other: () => ({ status: 206, body: 'x' }),
    });
    const src = createYoutubeSource({ baseUrl: BASE, fetch: yt.fetch, chains: { streams: ['VISIONOS'] } });
    const audio = await src.getAudioSource(VIDEO);
    const chosen = (player.streamingData.adaptiveFormats as AudioFormat[]).find(
      (f) =>
        new URL(f.url).searchParams.get('itag') === new URL(audio.url).searchParams.get('itag') &&
        new URL(f.url).searchParams.get('xtags') === new URL(audio.url).searchParams.get('xtags'),
    );
    expect(chosen?.audioTrack?.id).toBe('en.4');
    expect(new URL(audio.url).searchParams.get('xtags')).toBe('acont=original:lang=en');
  });

  it('a video whose only default track is a dub still gets an undubbed one when there is one', async () => {
    const player = crafted({ originalTagged: true });
    // No track is marked original: the original's id and acont are gone, the Spanish auto-dub is the default.
    for (const f of player.streamingData.adaptiveFormats as AudioFormat[])
      if (f.audioTrack?.id === 'en.4') {
        f.audioTrack.id = 'en';
        delete f.xtags;
      }
    const yt = fakeYoutube({ player: () => json(player), other: () => ({ status: 206, body: 'x' }) });
    const src = createYoutubeSource({ baseUrl: BASE, fetch: yt.fetch, chains: { streams: ['VISIONOS'] } });
    const audio = await src.getAudioSource(VIDEO);
    expect(new URL(audio.url).searchParams.get('xtags')).not.toMatch(/dubbed/);
  });
});
