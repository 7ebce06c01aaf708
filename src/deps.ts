import type { Db, Sql } from '../db/client.ts';
import type { Config } from './config.ts';
import type { LastUsedRecorder } from './domain/keys/last-used.ts';
import type { BlobStore, FrameGrabber, Llm, VideoSource } from './domain/ports.ts';
import type { Logger } from './infra/log/logger.ts';
import type { JobQueue } from './jobs/queue.ts';

/** Everything a procedure or worker may use, built once by main.ts (or a test). */
export interface Deps {
  config: Config;
  sql: Sql;
  db: Db;
  log: Logger;
  lastUsed: LastUsedRecorder;
  youtube: VideoSource;
  frames: FrameGrabber;
  blobs: BlobStore;
  llm: Llm | null;
  queue: JobQueue;
  /** HMAC secret for signed URLs. */
  signingSecret: string;
  publicUrl: string;
}
