// Video info for a direct media URL: what ffprobe says (duration, streams, title tag), read through the media
// gateway (never from the URL itself), after the first bytes have been sniffed: a page, an image or anything else
// that is not audio, video or an HLS playlist is refused before ffprobe runs.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ServiceError } from '../../domain/errors.ts';
import type { MediaProbe, MediaProber, MediaStream } from '../../domain/ports.ts';
import type { MediaGateway } from '../net/media-gateway.ts';
import { redactUrls } from './redact-urls.ts';
import { gatewayInputArgs } from './gateway-input.ts';

const SNIFF_BYTES = 4096;
/** ffprobe reads headers, not the whole file; a bound keeps a hostile server from streaming forever. */
const PROBE_MAX_BYTES = 32 * 1024 * 1024;

/** ffprobe next to the ffmpeg in use, else the one on PATH. */
export function ffprobeBeside(ffmpegPath: string): string {
  const beside = join(dirname(ffmpegPath), 'ffprobe');
  return ffmpegPath.includes('/') && existsSync(beside) ? beside : 'ffprobe';
}

export function createMediaProber(opts: {
  ffprobePath: string;
  gateway: MediaGateway;
  timeoutMs?: number;
}): MediaProber {
  const timeoutMs = opts.timeoutMs ?? 20_000;
  return {
    async probe(url, signal) {
      const head = await opts.gateway.head(url, SNIFF_BYTES, signal);
      const kind = sniff(head.contentType, head.bytes);
      if (!kind)
        throw new ServiceError(
          'INVALID_REQUEST',
          `The media URL does not serve audio, video or an HLS playlist (content-type ${head.contentType ?? 'none'})`,
        );
      const session = await opts.gateway.open(url, { maxBytes: PROBE_MAX_BYTES });
      try {
        const json = await run(
          opts.ffprobePath,
          [
            '-v',
            'error',
            ...gatewayInputArgs(session.ffmpegArgs, timeoutMs),
            '-show_format',
            '-show_streams',
            '-of',
            'json',
            session.url,
          ],
          timeoutMs,
          signal,
          session.env,
        );
        return toProbe(json, kind, head.size);
      } finally {
        session.close();
      }
    },
  };
}

/** 'hls' for a playlist, 'file' for audio or video; null for anything else. */
function sniff(contentType: string | null, bytes: Buffer): 'hls' | 'file' | null {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  const text = bytes.subarray(0, 16).toString('latin1');
  if (text.startsWith('#EXTM3U')) return 'hls';
  if (/^(text\/html|application\/(xhtml|json|xml)|image\/)/.test(type)) return null;
  if (/^(audio|video)\//.test(type)) return 'file';
  // Generic types: the container's magic bytes decide.
  const magic =
    text.startsWith('ID3') ||
    (bytes[0] === 0xff && ((bytes[1] ?? 0) & 0xe0) === 0xe0) || // MP3 / ADTS
    (text.startsWith('RIFF') && bytes.subarray(8, 12).toString('latin1') === 'WAVE') ||
    text.startsWith('OggS') ||
    text.startsWith('fLaC') ||
    bytes.subarray(4, 8).toString('latin1') === 'ftyp' || // MP4, M4A, MOV
    (bytes.length >= 4 && bytes.readUInt32BE(0) === 0x1a45dfa3) || // Matroska / WebM
    (bytes[0] === 0x47 && bytes[188] === 0x47); // MPEG-TS
  return magic ? 'file' : null;
}

interface FfprobeJson {
  format?: { format_name?: string; duration?: string; size?: string; tags?: Record<string, string> };
  streams?: Array<{
    index: number;
    codec_type?: string;
    codec_name?: string;
    width?: number;
    height?: number;
    channels?: number;
    sample_rate?: string;
    duration?: string;
  }>;
}

function toProbe(raw: string, kind: 'hls' | 'file', size: number | null): MediaProbe {
  let json: FfprobeJson;
  try {
    json = JSON.parse(raw) as FfprobeJson;
  } catch {
    throw new ServiceError('EXTRACTION_FAILED', 'ffprobe answered something unreadable');
  }
  const tags = Object.fromEntries(Object.entries(json.format?.tags ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
  const duration = Number(json.format?.duration);
  const streams = (json.streams ?? [])
    .filter((s) => s.codec_type === 'audio' || s.codec_type === 'video')
    .map(
      (s): MediaStream =>
        s.codec_type === 'video'
          ? {
              index: s.index,
              type: 'video',
              codec: s.codec_name ?? 'unknown',
              width: s.width ?? null,
              height: s.height ?? null,
            }
          : {
              index: s.index,
              type: 'audio',
              codec: s.codec_name ?? 'unknown',
              channels: s.channels ?? null,
              sampleRate: s.sample_rate ? Number(s.sample_rate) : null,
            },
    );
  if (streams.length === 0) throw new ServiceError('INVALID_REQUEST', 'The media URL has no audio or video stream');
  return {
    title: tags.title ?? null,
    // An HLS playlist without an end (a live stream) has no duration.
    duration: Number.isFinite(duration) && duration > 0 ? Math.round(duration * 1000) / 1000 : null,
    formatName: json.format?.format_name ?? 'unknown',
    bytes: kind === 'file' ? (size ?? (json.format?.size ? Number(json.format.size) : null)) : null,
    kind,
    streams,
  };
}

function run(
  binary: string,
  args: string[],
  timeoutMs: number,
  signal?: AbortSignal,
  env?: NodeJS.ProcessEnv,
): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(binary, args, { timeout: timeoutMs, maxBuffer: 4 * 1024 * 1024, signal, env }, (err, stdout, stderr) => {
      if (err) {
        const last = String(stderr).trim().split('\n').at(-1);
        const line = last === undefined ? undefined : redactUrls(last).slice(0, 200);
        return reject(new ServiceError('EXTRACTION_FAILED', `the media could not be read: ${line || err.message}`));
      }
      resolve(stdout);
    });
  });
}
