// Speech-to-text must hear the language actually spoken, never a dub. Crafted players built from the recorded
// multi-audio answer (player.visionos.captions-19-tracks.multi-audio.kX3nB4PpJko.json: 25 audio tracks, "en.4"
// "English original" with acont=original, the others "<lang>.3" with acont=dubbed): YouTube marks as default the
// track in the viewer's language, and since AI dubbing that can be an auto-dub (acont=dubbed-auto in the format's
// xtags). Through the real youtubei.js parser and the streams chain.
import { describe, expect, it } from 'vitest';
import { createYoutubeSource } from '../../src/infra/youtube/create-youtube-source.ts';
import { fakeYoutube, json } from '../support/fake-youtube.ts';
import { readShared, sharedAvailable } from '../support/fixture-files.ts';

const BASE = 'http://127.0.0.1:1';
const VIDEO = 'kX3nB4PpJko';

interface AudioFormat {
  itag: number;
  mimeType: string;
  url: string;
  xtags?: string;
  averageBitrate?: number;
  audioTrack?: { id: string; displayName: string; audioIsDefault: boolean };
}

/** The xtags field as YouTube sends it: a base64url FormatXTags protobuf of key/value pairs. */
function xtags(pairs: Record<string, string>): string {
  const str = (field: number, s: string) => Buffer.concat([Buffer.from([(field << 3) | 2, s.length]), Buffer.from(s)]);
  const tags = Object.entries(pairs).map(([k, v]) => {
    const tag = Buffer.concat([str(1, k), str(2, v)]);
    return Buffer.concat([Buffer.from([(1 << 3) | 2, tag.length]), tag]);
  });
  return Buffer.concat(tags).toString('base64url');
}

/** The recorded player with Spanish as an AI dub marked default, and the original no longer marked default. */
function crafted(opts: { originalTagged: boolean }) {
  const player = JSON.parse(readShared('player.visionos.captions-19-tracks.multi-audio.kX3nB4PpJko.json'));
  const formats = player.streamingData.adaptiveFormats as AudioFormat[];
  for (const f of formats) {
    if (!f.audioTrack) continue;
    const lang = f.audioTrack.id.split('.')[0]!;
    if (f.audioTrack.id === 'es.3') {
      f.audioTrack.audioIsDefault = true;
      f.xtags = xtags({ acont: 'dubbed-auto', lang });
      // The dub is also the cheapest adequate download (the original's itag 139 is 48,790 b/s): a bitrate rule alone
      // would take it.
      f.averageBitrate = 48_500;
    } else if (f.audioTrack.id === 'en.4') {
      f.audioTrack.audioIsDefault = false;
      // Without its acont tag the original is known by its "<lang>.4" id alone.
      if (!opts.originalTagged) delete f.xtags;
    }
  }
  return player;
}

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
