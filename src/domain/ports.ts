// The outside world as the domain sees it. src/infra implements these; tests may hand in loopback ones.
import type { AudioSource } from './speech/ports.ts';
import type { WordedSegment } from './transcripts/words.ts';
import type { Track, VideoInfo } from './video/schemas.ts';

/** A caption track plus what is needed to download it. */
export interface SourceTrack extends Track {
  /** Opaque to the domain: the adapter's handle for downloading the track (a timedtext URL for YouTube). */
  ref: string;
}

export interface SourceVideo {
  info: VideoInfo;
  tracks: SourceTrack[];
}

/** A URL ffmpeg can seek in, or storyboard sprites when no stream can be had. */
export type FrameSource =
  /**
   * `direct`: a caller's media URL, read only through the SSRF-guarded media gateway. `egress`: the egress identity
   * that got a YouTube stream URL; ffmpeg fetches it through the same one (googlevideo may bind a URL to the address
   * that asked for it).
   */
  | { kind: 'stream'; url: string; width: number; height: number; direct?: boolean; egress?: string }
  | {
      kind: 'storyboard';
      /** Sprite sheet URL template, with $M for the sheet index already resolved per call by the adapter. */
      sheetUrl: (index: number) => string;
      thumbWidth: number;
      thumbHeight: number;
      columns: number;
      rows: number;
      /** Seconds between thumbnails. */
      interval: number;
      count: number;
      /** The egress identity the sheets are fetched through (the one that got the player answer). */
      egress?: string;
    };

export interface VideoSource {
  /**
   * Metadata and caption tracks, through the client chain for `purpose` (default captions: tracks that download).
   * Throws ServiceError: VIDEO_NOT_FOUND, VIDEO_* restrictions, EXTRACTION_FAILED, SERVICE_BUSY (no route to YouTube
   * is usable now; retryAfter says when one is).
   */
  getVideo(videoId: string, signal?: AbortSignal, purpose?: 'captions' | 'metadata'): Promise<SourceVideo>;
  /** Downloads and parses one track. Throws ServiceError EXTRACTION_FAILED on upstream failure. */
  fetchTranscript(track: SourceTrack, signal?: AbortSignal): Promise<WordedSegment[]>;
  /** A seekable stream at least `width` wide when possible, else storyboards. */
  getFrameSource(videoId: string, width: number, signal?: AbortSignal): Promise<FrameSource>;
  /**
   * The smallest adequate audio-only stream, for speech-to-text. Optional so sources without audio (test fakes)
   * need not implement it; speech-to-text then fails with EXTRACTION_FAILED.
   */
  getAudioSource?(videoId: string, signal?: AbortSignal): Promise<AudioSource>;
}

/** What ffprobe says about a direct media URL. */
export interface MediaProbe {
  /** The container's title tag. */
  title: string | null;
  /** Seconds; null for a live HLS playlist (no end). */
  duration: number | null;
  formatName: string;
  bytes: number | null;
  kind: 'file' | 'hls';
  streams: MediaStream[];
}

export type MediaStream =
  | { index: number; type: 'video'; codec: string; width: number | null; height: number | null }
  | { index: number; type: 'audio'; codec: string; channels: number | null; sampleRate: number | null };

export interface MediaProber {
  /**
   * Reads a caller's media URL through the SSRF guard. Throws INVALID_REQUEST (not allowed, not audio or video),
   * EXTRACTION_FAILED (unreachable, unreadable).
   */
  probe(url: string, signal?: AbortSignal): Promise<MediaProbe>;
}

export interface CapturedImage {
  bytes: Buffer;
  mimeType: 'image/jpeg';
  width: number;
  height: number;
}

export interface FrameGrabber {
  /** One frame at `t` seconds, scaled to `width` (aspect kept). Throws ServiceError FRAME_FAILED. */
  capture(source: FrameSource, t: number, width: number, signal?: AbortSignal): Promise<CapturedImage>;
}

export interface BlobStore {
  put(key: string, bytes: Buffer, mimeType: string): Promise<void>;
  get(key: string): Promise<{ bytes: Buffer; mimeType: string } | null>;
  /** A URL anyone can GET the blob from for `ttlSeconds` (object stores); absent: we sign our own /frames URLs. */
  presignGet?(key: string, ttlSeconds: number): Promise<string>;
  /** Throws when the store cannot be used (missing bucket, refused credentials); for boot and /readyz. */
  check?(): Promise<void>;
}

export interface LlmUsage {
  inputTokens: number;
  outputTokens: number;
}

export interface Llm {
  readonly model: string;
  /** Structured output: the answer is validated against `schema` (a zod schema); retries on overload are the adapter's. */
  generate<T>(req: {
    system: string;
    prompt: string;
    schema: import('zod').ZodType<T>;
    maxTokens: number;
    signal?: AbortSignal;
  }): Promise<{ value: T; usage: LlmUsage }>;
}

/** Where the domain reports what it survived (a failed progress write, an article not indexed); pino in src/infra/log. */
export interface Log {
  warn(obj: object, msg: string): void;
}

/**
 * Which language a text is written in (src/infra/language/). The domain asks it about an auto-generated caption
 * track once, when the track is extracted: YouTube's speech recognition files some videos under the wrong language.
 */
export interface LanguageIdentifier {
  /**
   * The language the texts are written in, as an ISO 639-1 code (`en`), or null when it cannot say: too little text,
   * no clear winner, or a `label` (the track's BCP 47 code) in a language it does not know, where any answer would
   * look like a mismatch. Reads a sample of the texts, not all of them.
   */
  identify(texts: readonly string[], label: string): Promise<string | null>;
}
