// Audio for speech-to-text: ffmpeg reads the stream (same protocol and container whitelists, redirect refusal and
// host allowlist as frames) and writes 16 kHz mono s16le, which we store in a temporary file while measuring the
// loudness of every 20 ms frame (for cutting on silence). `-t` on the output stops decoding one second past the
// duration bound, and seconds are counted from the PCM bytes written, never from what the media claims (a playlist's
// #EXTINF or a container's header may lie). Whether audio past the bound is refused is the caller's decision.
import { isServiceError, ServiceError } from '../../domain/errors.ts';
import { SAMPLE_RATE, type AudioDecoder, type AudioSource, type DecodedAudio } from '../../domain/speech/ports.ts';
import { decodeToFile } from './decode-to-file.ts';
import { fetchAllowed } from './fetch-allowed.ts';
import { probeFfmpeg } from './probe-ffmpeg.ts';
import type { StreamAllowlist } from './stream-allowlist.ts';
import type { Dispatcher } from 'undici';
import type { MediaGateway } from '../net/media-gateway.ts';
import { gatewayInputArgs } from './gateway-input.ts';

// Only what an http(s) input needs; never file, pipe, concat, data or subfile.
const PROTOCOLS = 'http,https,tcp,tls';
// Containers YouTube's audio-only formats come in (m4a, webm/opus).
const AUDIO_FORMATS = 'mov,mp4,m4a,3gp,3g2,mj2,matroska,webm';

export interface FfmpegAudioDecoderOptions {
  ffmpegPath: string;
  /** Exact origins allowed besides YouTube's media hosts (the YOUTUBE_BASE_URL origin). */
  extraOrigins?: readonly string[];
  /** No byte from the source for this long: give up. */
  stallTimeoutMs?: number;
  /** Direct media URLs (a caller's) are read only through it; without one they are refused. */
  gateway?: MediaGateway;
  /** The proxy of a YouTube egress identity (undefined: the machine's own address); see AudioSource.egress. */
  egress?: (identity: string) => Dispatcher | undefined;
  /** The whole decode may take this long: a server trickling bytes must not hold a speech-to-text slot. */
  timeoutMs?: number;
}

export function createFfmpegAudioDecoder(opts: FfmpegAudioDecoderOptions): AudioDecoder {
  const allow: StreamAllowlist = { extraOrigins: opts.extraOrigins ?? [] };
  let capabilities: ReturnType<typeof probeFfmpeg> | undefined;
  return {
    async decode(source, { maxSeconds, maxBytes, signal, onProgress }) {
      if (source.bytes && source.bytes > maxBytes) throw tooLarge(`${source.bytes} bytes`, maxBytes);
      if (source.direct) return decodeDirect(opts, source, { maxSeconds, maxBytes, signal, onProgress });
      // The proxy of the identity that got the URL (googlevideo may bind it to that address): preflight and ffmpeg
      // both go through it, ffmpeg by way of the gateway.
      const via = source.egress ? opts.egress?.(source.egress) : undefined;
      const preflight = await asAudioFailure(() =>
        fetchAllowed(source.url, {
          allow,
          signal: signal ?? new AbortController().signal,
          probe: true,
          dispatcher: via,
        }),
      );
      if (preflight.size && preflight.size > maxBytes) throw tooLarge(`${preflight.size} bytes`, maxBytes);
      if (via)
        return decodeDirect(
          opts,
          { ...source, url: preflight.url.href },
          { maxSeconds, maxBytes, signal, onProgress, via, formats: AUDIO_FORMATS },
        );
      capabilities ??= probeFfmpeg(opts.ffmpegPath);
      const { maxRedirects } = await capabilities;
      const args = urlDecodeArgs(preflight.url.href, maxRedirects, opts.stallTimeoutMs ?? 30_000, maxSeconds);
      return decodeToFile(opts.ffmpegPath, args, { signal, onProgress, timeoutMs: opts.timeoutMs });
    },
  };
}

/** ffmpeg reads the URL itself, through the same whitelists as frames and no redirect. */
function urlDecodeArgs(url: string, maxRedirects: boolean, stallTimeoutMs: number, maxSeconds: number): string[] {
  return [
    '-hide_banner',
    '-loglevel',
    'error',
    '-nostdin',
    '-protocol_whitelist',
    PROTOCOLS,
    '-format_whitelist',
    AUDIO_FORMATS,
    ...(maxRedirects ? ['-max_redirects', '0'] : []),
    '-rw_timeout',
    String(stallTimeoutMs * 1000),
    '-i',
    url,
    ...pcmOutputArgs(maxSeconds),
  ];
}

// A caller's URL: ffmpeg reads the gateway's loopback URL (plain http, nothing else), which fetches through the
// SSRF guard (or the egress proxy `via`), follows redirects itself, rewrites playlists and stops at maxBytes.
async function decodeDirect(
  opts: FfmpegAudioDecoderOptions,
  source: AudioSource,
  o: {
    maxSeconds: number;
    maxBytes: number;
    signal?: AbortSignal;
    onProgress?: (seconds: number) => void;
    via?: Dispatcher;
    formats?: string;
  },
) {
  if (!opts.gateway)
    throw new ServiceError(
      'EXTRACTION_FAILED',
      o.via ? 'No media gateway to fetch through' : 'Direct media URLs are not enabled here',
    );
  const session = await opts.gateway.open(source.url, { maxBytes: o.maxBytes, dispatcher: o.via });
  try {
    const args = [
      '-hide_banner',
      '-loglevel',
      'error',
      '-nostdin',
      ...gatewayInputArgs(session.ffmpegArgs, opts.stallTimeoutMs ?? 30_000, o.formats),
      '-i',
      session.url,
      ...pcmOutputArgs(o.maxSeconds),
    ];
    let audio: DecodedAudio;
    try {
      audio = await decodeToFile(opts.ffmpegPath, args, {
        signal: o.signal,
        onProgress: o.onProgress,
        env: session.env,
        timeoutMs: opts.timeoutMs,
      });
    } catch (err) {
      if (session.exceeded()) throw tooLarge('stream', o.maxBytes);
      throw err;
    }
    if (session.exceeded()) {
      await audio.dispose();
      throw tooLarge('stream', o.maxBytes);
    }
    return audio;
  } finally {
    session.close();
  }
}

/** fetchAllowed speaks of frames; for audio the same refusals are extraction failures. */
async function asAudioFailure<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (isServiceError(err) && err.code === 'FRAME_FAILED')
      throw new ServiceError('EXTRACTION_FAILED', err.message.replace(/frame source/g, 'audio source'));
    throw err;
  }
}

const tooLarge = (what: string, max: number) =>
  new ServiceError('MEDIA_TOO_LARGE', `The media (${what}) is larger than the ${max} bytes allowed for speech-to-text`);

/** 16 kHz mono s16le on stdout, one second past the bound: that second tells "longer than allowed" from "as long". */
const pcmOutputArgs = (maxSeconds: number) => [
  '-t',
  String(maxSeconds + 1),
  '-vn',
  '-ac',
  '1',
  '-ar',
  String(SAMPLE_RATE),
  '-f',
  's16le',
  'pipe:1',
];
