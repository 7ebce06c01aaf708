// What speech-to-text needs from the outside: where the audio is, something that decodes it, and an engine.
import type { WordedSegment } from '../transcripts/words.ts';

/** An audio (or audio+video) stream to transcribe. */
export interface AudioSource {
  url: string;
  /** Bytes, when the source says (YouTube's contentLength, a server's Content-Length). */
  bytes?: number | null;
  /** Seconds, when known before decoding. */
  seconds?: number | null;
  /** YouTube's audio formats are single files; a direct URL may be an HLS playlist. */
  kind?: 'file' | 'hls';
  /** A caller's media URL: read only through the SSRF-guarded media gateway, never by ffmpeg itself. */
  direct?: boolean;
  /** The egress identity that got a YouTube stream URL: ffmpeg fetches it through the same one. */
  egress?: string;
}

/** 16 kHz mono signed 16-bit PCM on disk, and its loudness per 20 ms frame (for splitting on silence). */
export interface DecodedAudio {
  seconds: number;
  /** RMS of each 20 ms frame, 0..1. */
  frameRms: Float32Array;
  /** The PCM between two times (seconds), as raw s16le. */
  read(start: number, end: number): Promise<Buffer>;
  /** Removes the temporary file. */
  dispose(): Promise<void>;
}

export interface AudioDecoder {
  /**
   * Decodes `source` up to one second past `maxSeconds` (never reading more than `maxBytes`), reporting seconds
   * decoded so far. `seconds` is what was decoded, whatever the media claims: more than `maxSeconds` means the audio
   * is longer than allowed, which the caller refuses. Throws ServiceError EXTRACTION_FAILED (unreachable, refused,
   * not audio, too slow), MEDIA_TOO_LARGE (bytes).
   */
  decode(
    source: AudioSource,
    opts: { maxSeconds: number; maxBytes: number; signal?: AbortSignal; onProgress?: (seconds: number) => void },
  ): Promise<DecodedAudio>;
}

export const SAMPLE_RATE = 16_000;
/** Frames of `frameRms`, in seconds. */
export const FRAME_SECONDS = 0.02;

export interface EngineResult {
  /** ISO 639-1 code the engine detected or was told; null when it cannot say. */
  language: string | null;
  /** Times relative to the start of the chunk; words when the engine timed them. */
  segments: WordedSegment[];
}

export interface SpeechEngine {
  /** `local` (pocketsphinx) or `openai-compatible`. */
  readonly name: string;
  readonly model: string;
  /** The longest chunk, in seconds, it is given at once. */
  readonly maxChunkSeconds: number;
  /** Languages it can transcribe (ISO 639-1), or null for any. */
  readonly languages: readonly string[] | null;
  /** Transcribes one chunk of 16 kHz mono s16le PCM. Throws ServiceError EXTRACTION_FAILED on upstream failure. */
  transcribe(pcm: Buffer, opts: { language?: string | null; signal?: AbortSignal }): Promise<EngineResult>;
}

/** Speech-to-text as the service runs it: null in Deps when no engine is configured or installed. */
export interface Speech {
  engine: SpeechEngine;
  decoder: AudioDecoder;
}
