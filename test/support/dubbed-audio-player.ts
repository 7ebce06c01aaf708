// A crafted player built from the recorded multi-audio answer (player.visionos.captions-19-tracks.multi-audio.
// kX3nB4PpJko.json: 25 audio tracks, "en.4" "English original" with acont=original, the others "<lang>.3" with
// acont=dubbed): YouTube marks as default the track in the viewer's language, and since AI dubbing that can be an
// auto-dub (acont=dubbed-auto in the format's xtags), which no recorded answer shows. So Spanish is made an AI dub
// marked default, and the original is no longer marked default.
import { readShared } from './fixture-files.ts';

export const DUBBED_VIDEO = 'kX3nB4PpJko';

export interface AudioFormat {
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
export function dubbedDefaultPlayer(opts: { originalTagged: boolean }) {
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
