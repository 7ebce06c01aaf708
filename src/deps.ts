import type { Sql } from '../db/client.ts';
import type { Config } from './config.ts';
import type { ArticleSearch } from './domain/articles/ports.ts';
import type { LastUsedRecorder } from './domain/keys/api-key-store.ts';
import type { BlobStore, FrameGrabber, LanguageIdentifier, Llm, MediaProber, VideoSource } from './domain/ports.ts';
import type { MediaGateway } from './infra/net/media-gateway.ts';
import type { Stores, Transaction } from './domain/stores.ts';
import type { HotCache } from './domain/transcripts/hot-cache.ts';
import type { WorkQueue } from './domain/work-queue.ts';
import type { ListingCache } from './domain/listing/listing-cache.ts';
import type { VideoLister } from './domain/listing/ports.ts';
import type { BatchStore } from './domain/batches/ports.ts';
import type { WebhookStore, WebhookTransport } from './domain/webhooks/ports.ts';
import type { WatchStore } from './domain/watches/watch-store.ts';
import type { Logger } from './infra/log/logger.ts';
import type { JobQueue } from './infra/queue/job-queue.ts';
import type { Metrics } from './infra/metrics/metrics.ts';
import type { CanaryRun } from './infra/youtube/youtube-canary.ts';
import type { OAuthPorts } from './domain/oauth/authorization.ts';
import type { Speech } from './domain/speech/ports.ts';
import type { LookupAdmission } from './domain/admission/lookup-admission.ts';
import type { ResourceLibrary } from './domain/resources/resource-library.ts';

/**
 * Everything a procedure or worker may hand to the domain, built once by build-deps.ts (or a test). Domain
 * functions name the few ports they use (e.g. `Pick<Stores, 'transcripts' | 'ledger'>`), never this whole bag.
 */
export interface Deps extends Stores {
  config: Config;
  /** The pool: for the composition root, health checks and tests. The domain reaches PostgreSQL through the stores. */
  sql: Sql;
  transaction: Transaction;
  log: Logger;
  lastUsed: LastUsedRecorder;
  youtube: VideoSource;
  /** Tells which language an auto-generated caption track's text is in (eld, loaded on first use). */
  languages: LanguageIdentifier;
  /** Playlists, channel tabs and searches. */
  lister: VideoLister;
  /** Listing pages kept a few minutes. */
  listingCache: ListingCache;
  batches: BatchStore;
  webhooks: WebhookStore;
  /** Channels, playlists and searches checked on a schedule for new videos. */
  watches: WatchStore;
  /** Sends webhooks under the SSRF rules (public addresses only; tests inject a loopback-allowing policy). */
  webhookTransport: WebhookTransport;
  frames: FrameGrabber;
  blobs: BlobStore;
  /** ffprobe of direct media URLs, through mediaGateway. */
  media: MediaProber;
  /**
   * Where ffmpeg and ffprobe read a caller's media URL from: a loopback proxy fetching under the SSRF rules (public
   * addresses only, https only; tests inject one that allows their loopback server).
   */
  mediaGateway: MediaGateway;
  /** Speech-to-text engine and audio decoder; null when none is configured or installed (STT_ENGINE). */
  speech: Speech | null;
  /** null when no LLM is configured: summaries fall back to the extractive generator. */
  llm: Llm | null;
  search: ArticleSearch;
  /** pg-boss, as the workers and the shutdown see it. */
  queue: JobQueue;
  /** The same queue as the domain sees it: one method per kind of job. */
  workQueue: WorkQueue;
  /** Stored transcripts and video rows kept in memory for the cached-transcript hot path. */
  hotCache: HotCache;
  /** What each account has obtained as an MCP resource (resources/list). */
  resourceLibrary: ResourceLibrary;
  /** The one admission step of every upstream lookup made before a charge is known. */
  lookupAdmission: LookupAdmission;
  /** HMAC secret for signed URLs. */
  signingSecret: string;
  publicUrl: string;
  /** Prometheus instruments of this process (/metrics). */
  metrics: Metrics;
  /** Subtext as the OAuth authorization server of /mcp. */
  oauth: OAuthPorts;
  /** Wall-clock milliseconds for rules that wait (sign-in delays); tests inject one they move. */
  clock: { now(): number };
  /** Runs the YouTube canary over these videos (src/infra/youtube/youtube-canary.ts), as the service's source asks. */
  youtubeCanary(videoIds: string[], signal?: AbortSignal): Promise<CanaryRun>;
}
