import { ServiceError } from '../../domain/errors.ts';
import type { CapturedImage, FrameGrabber, FrameSource } from '../../domain/ports.ts';
import { fetchAllowed } from './fetch-allowed.ts';
import { jpegSize } from './jpeg-size.ts';
import { probeFfmpeg } from './probe-ffmpeg.ts';
import { runFfmpeg } from './run-ffmpeg.ts';
import { storyboardTile } from './storyboard-tile.ts';
import type { StreamAllowlist } from './stream-allowlist.ts';
import type { Dispatcher } from 'undici';
import type { MediaGateway } from '../net/media-gateway.ts';
import { gatewayInputArgs } from './gateway-input.ts';

type Stream = Extract<FrameSource, { kind: 'stream' }>;
type Storyboard = Extract<FrameSource, { kind: 'storyboard' }>;

export interface FfmpegFrameGrabberOptions {
  ffmpegPath: string;
  /** Exact origins allowed besides YouTube's media hosts (the YOUTUBE_BASE_URL origin). */
  extraOrigins?: readonly string[];
  /** Whole capture, preflight and sheet download included. */
  timeoutMs?: number;
  /** ffmpeg processes at once in this process; further captures wait (within their timeout). */
  maxConcurrent?: number;
  /** Direct media URLs (a caller's) are read only through it, and YouTube streams an egress proxy got. */
  gateway?: MediaGateway;
  /** The proxy of a YouTube egress identity (undefined: the machine's own address); see FrameSource.egress. */
  egress?: (identity: string) => Dispatcher | undefined;
}

/** Bytes one frame of a direct media URL may read (a seek reads an index and one GOP, not the file). */
const DIRECT_MAX_BYTES = 256 * 1024 * 1024;

const MAX_OUTPUT_BYTES = 10 * 1024 * 1024;
const MAX_SHEET_BYTES = 5 * 1024 * 1024;
const MAX_WIDTH = 3840;

// Only what an http(s) input needs; never file, pipe, concat, data, subfile or hls' crypto.
const STREAM_PROTOCOLS = 'http,https,tcp,tls';
// Demuxers a YouTube stream can need. Keeps out hls/dash/concat, whose playlists would open URLs we never checked.
const STREAM_FORMATS = 'mov,mp4,m4a,3gp,3g2,mj2,matroska,webm';
const SHEET_FORMATS = 'image2pipe,jpeg_pipe,webp_pipe,png_pipe';

export function createFfmpegFrameGrabber(opts: FfmpegFrameGrabberOptions): FrameGrabber {
  const g: Grabber = {
    opts,
    allow: { extraOrigins: opts.extraOrigins ?? [] },
    timeoutMs: opts.timeoutMs ?? 15_000,
    slots: createSlots(opts.maxConcurrent ?? Infinity),
  };
  return { capture: (source, t, width, callerSignal) => capture(g, source, t, width, callerSignal) };
}

interface Grabber {
  opts: FfmpegFrameGrabberOptions;
  allow: StreamAllowlist;
  timeoutMs: number;
  slots: ReturnType<typeof createSlots>;
  /** Probed on the first stream capture. */
  capabilities?: ReturnType<typeof probeFfmpeg>;
}

async function capture(g: Grabber, source: FrameSource, t: number, width: number, callerSignal?: AbortSignal) {
  if (!Number.isFinite(t) || t < 0) {
    throw new ServiceError('INVALID_REQUEST', 't must be a non-negative number of seconds');
  }
  if (!Number.isInteger(width) || width < 2 || width > MAX_WIDTH) {
    throw new ServiceError('INVALID_REQUEST', `width must be an integer from 2 to ${MAX_WIDTH}`);
  }
  const timeout = AbortSignal.timeout(g.timeoutMs);
  const signal = callerSignal ? AbortSignal.any([callerSignal, timeout]) : timeout;
  try {
    const release = await g.slots.acquire(signal);
    try {
      const bytes =
        source.kind === 'stream'
          ? await captureStream(g, source, t, width, signal)
          : await captureStoryboard(g, source, t, width, signal);
      const size = jpegSize(bytes);
      if (!size) throw new ServiceError('FRAME_FAILED', 'ffmpeg produced no readable JPEG');
      return { bytes, mimeType: 'image/jpeg', ...size } satisfies CapturedImage;
    } finally {
      release();
    }
  } catch (err) {
    if (callerSignal?.aborted) throw callerSignal.reason;
    if (timeout.aborted) {
      throw new ServiceError('FRAME_FAILED', `frame capture timed out after ${g.timeoutMs / 1000}s`);
    }
    throw err;
  }
}

/** ffmpeg's output: one frame through `filter`, as a JPEG on stdout. */
function oneJpeg(filter: string): string[] {
  return ['-frames:v', '1', '-vf', filter, '-f', 'image2pipe', '-c:v', 'mjpeg', '-q:v', '3', 'pipe:1'];
}

async function captureDirect(g: Grabber, source: Stream, t: number, width: number, signal: AbortSignal) {
  return captureThroughGateway(g, source.url, t, width, signal, {});
}

/**
 * ffmpeg reads the gateway's loopback URL, and the gateway fetches upstream: through the SSRF guard for a caller's
 * URL, or through the egress proxy that got a YouTube stream URL (`via`, with the stream containers only).
 */
async function captureThroughGateway(
  g: Grabber,
  url: string,
  t: number,
  width: number,
  signal: AbortSignal,
  o: { via?: Dispatcher; formats?: string },
) {
  if (!g.opts.gateway)
    throw new ServiceError(
      'FRAME_FAILED',
      o.via ? 'No media gateway to fetch through' : 'Direct media URLs are not enabled here',
    );
  const session = await g.opts.gateway.open(url, { maxBytes: DIRECT_MAX_BYTES, dispatcher: o.via });
  try {
    const args = [
      '-hide_banner',
      '-loglevel',
      'error',
      '-nostdin',
      ...gatewayInputArgs(session.ffmpegArgs, g.timeoutMs, o.formats),
      '-noaccurate_seek',
      '-ss',
      t.toFixed(3),
      '-i',
      session.url,
      ...oneJpeg(`fps=fps=1000:start_time=0:round=down,scale=${width}:-2`),
    ];
    const bytes = await runFfmpeg(g.opts.ffmpegPath, args, { signal, maxBytes: MAX_OUTPUT_BYTES, env: session.env });
    if (session.exceeded()) throw new ServiceError('FRAME_FAILED', 'the media source sent more than a frame needs');
    if (bytes.length === 0) throw new ServiceError('FRAME_FAILED', `no frame at ${t}s: past the end of the video?`);
    return bytes;
  } finally {
    session.close();
  }
}

async function captureStream(g: Grabber, source: Stream, t: number, width: number, signal: AbortSignal) {
  if (source.direct) return captureDirect(g, source, t, width, signal);
  // The proxy of the identity that got the URL: preflight and ffmpeg both go through it.
  const via = source.egress ? g.opts.egress?.(source.egress) : undefined;
  // Preflight: follows redirects ourselves, each hop checked, so ffmpeg gets the final allowed URL.
  const { url } = await fetchAllowed(source.url, { allow: g.allow, signal, probe: true, dispatcher: via });
  if (via) return captureThroughGateway(g, url.href, t, width, signal, { via, formats: STREAM_FORMATS });
  g.capabilities ??= probeFfmpeg(g.opts.ffmpegPath);
  const { maxRedirects } = await g.capabilities;
  const args = [
    '-hide_banner',
    '-loglevel',
    'error',
    '-nostdin',
    '-protocol_whitelist',
    STREAM_PROTOCOLS,
    '-format_whitelist',
    STREAM_FORMATS,
    // ffmpeg follows redirects to any host; 0 makes it refuse them. Builds without the option (the 2018 fallback)
    // are covered only by the preflight: a server that redirects ffmpeg's later range requests is a residual risk.
    ...(maxRedirects ? ['-max_redirects', '0'] : []),
    '-rw_timeout',
    String(g.timeoutMs * 1000),
    // The frame on screen at t: the last one starting at or before t. Plain -ss gives the first frame at or after
    // t, a whole frame late on low frame rates. Without accurate seek, decoding starts at the keyframe before t with
    // timestamps relative to t, and the fps filter's tick at 0 (1 ms steps) takes the latest frame not after it (none
    // past the end).
    '-noaccurate_seek',
    '-ss',
    t.toFixed(3),
    '-i',
    url.href,
    ...oneJpeg(`fps=fps=1000:start_time=0:round=down,scale=${width}:-2`),
  ];
  const bytes = await runFfmpeg(g.opts.ffmpegPath, args, { signal, maxBytes: MAX_OUTPUT_BYTES });
  // No frame means t is past the end of the last frame.
  if (bytes.length === 0) throw new ServiceError('FRAME_FAILED', `no frame at ${t}s: past the end of the video?`);
  return bytes;
}

async function captureStoryboard(g: Grabber, sb: Storyboard, t: number, width: number, signal: AbortSignal) {
  const tile = storyboardTile(sb, t);
  const via = sb.egress ? g.opts.egress?.(sb.egress) : undefined;
  const { body } = await fetchAllowed(sb.sheetUrl(tile.sheet), {
    allow: g.allow,
    signal,
    maxBytes: MAX_SHEET_BYTES,
    dispatcher: via,
  });
  // Storyboards are small; scaling one up only adds bytes, so the tile keeps its own width when that is smaller.
  const outWidth = Math.min(width, sb.thumbWidth);
  const args = [
    '-hide_banner',
    '-loglevel',
    'error',
    '-protocol_whitelist',
    'pipe',
    '-format_whitelist',
    SHEET_FORMATS,
    '-i',
    'pipe:0',
    ...oneJpeg(`crop=${sb.thumbWidth}:${sb.thumbHeight}:${tile.x}:${tile.y},scale=${outWidth}:-2`),
  ];
  const bytes = await runFfmpeg(g.opts.ffmpegPath, args, { stdin: body!, signal, maxBytes: MAX_OUTPUT_BYTES });
  if (bytes.length === 0) throw new ServiceError('FRAME_FAILED', 'storyboard sheet gave no image');
  return bytes;
}

/** A counting semaphore whose waiters give up when their signal aborts. */
function createSlots(max: number) {
  let used = 0;
  const waiters: Array<() => void> = [];
  const release = () => {
    used--;
    waiters.shift()?.();
  };
  return {
    acquire(signal: AbortSignal): Promise<() => void> {
      if (used < max) {
        used++;
        return Promise.resolve(once(release));
      }
      return new Promise((resolve, reject) => {
        const grant = () => {
          signal.removeEventListener('abort', onAbort);
          used++;
          resolve(once(release));
        };
        const onAbort = () => {
          waiters.splice(waiters.indexOf(grant), 1);
          reject(signal.reason);
        };
        signal.addEventListener('abort', onAbort, { once: true });
        waiters.push(grant);
      });
    },
  };
}

function once(fn: () => void): () => void {
  let done = false;
  return () => {
    if (!done) {
      done = true;
      fn();
    }
  };
}
