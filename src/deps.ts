import type { Sql } from '../db/client.ts';
import type { Config } from './config.ts';
import type { LastUsedRecorder } from './domain/keys/last-used.ts';
import type { ArticleSearch } from './domain/articles/search-port.ts';
import type { BlobStore, FrameGrabber, Llm, VideoSource } from './domain/ports.ts';
import type { HotCache } from './domain/subtitles/hot-cache.ts';
import type { Logger } from './infra/log/logger.ts';
import type { JobQueue } from './jobs/queue.ts';

/** Everything a procedure or worker may use, built once by main.ts (or a test). */
export interface Deps {
  config: Config;
  sql: Sql;
  log: Logger;
  lastUsed: LastUsedRecorder;
  youtube: VideoSource;
  frames: FrameGrabber;
  blobs: BlobStore;
  /** null when no LLM is configured: summaries fall back to the extractive generator. */
  llm: Llm | null;
  search: ArticleSearch;
  queue: JobQueue;
  /** Stored transcripts and video rows kept in memory for the cached-transcript hot path. */
  hotCache: HotCache;
  /** HMAC secret for signed URLs. */
  signingSecret: string;
  publicUrl: string;
}
