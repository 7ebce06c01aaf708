import { randomBytes } from 'node:crypto';
import { connect, migrateDatabase, type Sql } from '../db/client.ts';
import type { Config } from './config.ts';
import type { Deps } from './deps.ts';
import { createHotCache } from './domain/transcripts/hot-cache.ts';
import { startEmbeddedPostgres, type EmbeddedDatabase } from './infra/database/embedded-postgres.ts';
import type { Logger } from './infra/log/logger.ts';
import { createLastUsedRecorder } from './infra/postgres/last-used.ts';
import { storedSecret, storedSigningSecret } from './infra/postgres/settings.ts';
import { createStores, createTransaction } from './infra/postgres/stores.ts';
import { createResourceLibrary } from './infra/postgres/resource-library.ts';
import { createLookupCounters } from './infra/postgres/lookup-counters.ts';
import { LookupAdmission } from './domain/admission/lookup-admission.ts';
import { createJobQueue, type JobQueue, QUEUE_POOL_MAX } from './infra/queue/job-queue.ts';
import { createWorkQueue } from './jobs/work-queue.ts';
import { addScrapeCollectors, createMetrics, type Metrics } from './infra/metrics/metrics.ts';
import { metricQueries } from './infra/metrics/metric-queries.ts';
import { createOAuthStore } from './infra/postgres/oauth-store.ts';
import { createAccessTokens } from './infra/oauth/access-tokens.ts';
import { createClientDocuments } from './infra/oauth/client-documents.ts';
import { verifyChallenge } from 'pkce-challenge';
import type { OAuthPorts } from './domain/oauth/authorization.ts';
import { scopeResources } from './domain/oauth/scope.ts';
import { createBlobStore } from './infra/blob/create-blob-store.ts';
import { createFfmpegFrameGrabber } from './infra/ffmpeg/capture-frame.ts';
import { findFfmpeg } from './infra/ffmpeg/find-ffmpeg.ts';
import { DEFAULT_LLM_MODEL, lazyLlm } from './infra/llm/lazy-llm.ts';
import { createArticleSearch } from './infra/search/create-article-search.ts';
import { lazyYoutubeLister, lazyYoutubeSource } from './infra/youtube/lazy-youtube.ts';
import { clientIdentities } from './infra/youtube/client-identities.ts';
import { checkPoTokenProvider, createPoTokenProvider } from './infra/youtube/po-token/create-provider.ts';
import { youtubeSourceOptions } from './infra/youtube/source-options.ts';
import { createEgressStore } from './infra/postgres/youtube-egress.ts';
import type { Outcome } from './domain/youtube/egress.ts';
import { createListingCache } from './domain/listing/listing-cache.ts';
import { createBatchRepository } from './infra/postgres/batches.ts';
import { createWebhookRepository } from './infra/postgres/webhooks.ts';
import { createWatchRepository } from './infra/postgres/watches.ts';
import { createWebhookTransport } from './infra/webhooks/webhook-transport.ts';
import { createSpeech } from './infra/speech/create-speech.ts';
import { createMediaGateway } from './infra/net/media-gateway.ts';
import { createProxyPool } from './infra/youtube/proxy-pool.ts';
import { createResidentialStore } from './infra/postgres/youtube-residential.ts';
import { createPlayerScriptStore } from './infra/postgres/youtube-player-scripts.ts';
import { PLAYER_VARIANTS, type PlayerScriptUse } from './domain/youtube/player-scripts.ts';
import { createResidentialBudget } from './domain/youtube/residential-budget.ts';
import type { Dispatcher } from 'undici';
import { operatorPolicy } from './infra/net/public-address.ts';
import { parseAllowedNetworks } from './allowed-networks.ts';
import { createMediaProber, ffprobeBeside } from './infra/ffmpeg/probe-media.ts';
import { withDirectMedia } from './infra/media/with-direct-media.ts';
import { createLanguageIdentifier } from './infra/language/identify-language.ts';

const APP_POOL_MAX = 20;

export interface Runtime {
  deps: Deps;
  /**
   * Stops claiming jobs and waits up to `timeoutMs` for the ones this instance holds; pg-boss then fails any still
   * running back to `retry` (retry_count + 1), for another worker to take. The queue's pool stays open: a request
   * still in flight can enqueue a job, or wait for one another instance runs. Call close() after.
   */
  drainJobs(timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

/** Resolves the database (embedded when DATABASE_URL is unset), migrates it, and builds every dependency. */
export async function buildDeps(config: Config, log: Logger, overrides: Partial<Deps> = {}): Promise<Runtime> {
  let embedded: EmbeddedDatabase | undefined;
  let url = config.DATABASE_URL;
  if (!url) {
    log.info({ dataDir: config.DATA_DIR }, 'DATABASE_URL is not set: starting an embedded PostgreSQL');
    embedded = await startEmbeddedPostgres(config.DATA_DIR);
    url = embedded.url;
    log.info({ dataDir: config.DATA_DIR, pid: embedded.pid, how: embedded.how }, EMBEDDED_MESSAGES[embedded.how]);
  }
  try {
    return await build(config, log, url, embedded, overrides);
  } catch (err) {
    // Never leave a database we started behind a failed start.
    await embedded?.stop().catch(() => {});
    throw err;
  }
}

const EMBEDDED_MESSAGES = {
  started: 'embedded PostgreSQL is running',
  joined: 'using the embedded PostgreSQL of the Subtext already running on this data directory',
  adopted: 'reusing the embedded PostgreSQL an earlier run left running (it did not stop cleanly)',
} as const;

async function build(
  config: Config,
  log: Logger,
  url: string,
  embedded: EmbeddedDatabase | undefined,
  overrides: Partial<Deps>,
): Promise<Runtime> {
  // A PO token provider too old to mint tokens YouTube accepts stops the start before anything is opened.
  const poTokens = createPoTokenProvider(config);
  await checkPoTokenProvider(poTokens, log);
  const { sql, signingSecret, oauthSecret, blobs } = await openStorage(config, url, embedded);
  const metrics = createMetrics();
  const queue = jobQueueFor(config, url, sql, log, metrics);
  const lastUsed = createLastUsedRecorder(sql);
  const publicUrl = (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/$/, '');
  const ffmpegPath = findFfmpeg({ ffmpegPath: config.FFMPEG_PATH, pathEnv: config.PATH }).path;
  const yt = youtubeParts(config, log, sql, metrics, poTokens);
  const media = mediaParts(config, log, ffmpegPath, overrides);
  const stores = createStores(sql);

  const deps: Deps = {
    ...stores,
    config,
    sql,
    transaction: createTransaction(sql),
    lookupAdmission: lookupAdmissionFor(config, sql, () => deps.clock.now()),
    resourceLibrary: createResourceLibrary(sql),
    log,
    lastUsed,
    queue,
    workQueue: createWorkQueue(overrides.queue ?? queue),
    // Three quarters of CACHE_MAX_MB; the HTTP layer keeps rendered answers in the last quarter.
    hotCache: createHotCache(Math.floor((config.CACHE_MAX_MB * 1024 * 1024 * 3) / 4)),
    signingSecret,
    publicUrl,
    ...media,
    youtube: withDirectMedia(yt.youtube, { prober: media.media, videos: stores.videos }),
    languages: createLanguageIdentifier(),
    lister: yt.lister,
    listingCache: createListingCache(),
    batches: createBatchRepository(sql),
    webhooks: createWebhookRepository(sql),
    watches: createWatchRepository(sql),
    webhookTransport: createWebhookTransport({
      policy: operatorPolicy(parseAllowedNetworks(config.WEBHOOK_ALLOWED_NETWORKS)),
    }),
    blobs,
    llm: llmFor(config, log),
    search: await createArticleSearch(config, sql),
    metrics,
    oauth: oauthPorts(config, sql, oauthSecret, () => deps.publicUrl),
    clock: { now: () => Date.now() },
    // youtubei.js is loaded by the first run, not at start (lazy-youtube.ts).
    youtubeCanary: async (videoIds, signal) =>
      (await import('./infra/youtube/youtube-canary.ts')).runYoutubeCanary(yt.youtubeOptions, videoIds, { signal }),
    ...overrides,
  };
  addCollectors(deps, sql, yt, queue);
  return runtime(deps, { sql, queue, lastUsed, blobs, poTokens: yt.poTokens, embedded });
}

/** The one admission step of upstream lookups (src/domain/admission/), its counters in PostgreSQL. */
function lookupAdmissionFor(config: Config, sql: Sql, now: () => number) {
  const limits = {
    freePer10Min: config.FREE_LOOKUPS_PER_10_MIN,
    inFlightPerAccount: config.LOOKUPS_IN_FLIGHT_PER_ACCOUNT,
    egressPerMinute: config.LOOKUP_EGRESS_PER_MINUTE,
  };
  return new LookupAdmission(createLookupCounters(sql), limits, now);
}

function jobQueueFor(config: Config, url: string, sql: Sql, log: Logger, metrics: Metrics) {
  return createJobQueue({
    url,
    sql,
    log,
    maxWaiting: config.QUEUE_MAX_WAITING,
    maxWaitingPerAccount: config.QUEUE_MAX_WAITING_PER_ACCOUNT,
    metrics,
  });
}

/** What /metrics reads at each scrape: database counts, cache sizes, YouTube identities, pool use. */
function addCollectors(deps: Deps, sql: Sql, yt: ReturnType<typeof youtubeParts>, queue: JobQueue) {
  addScrapeCollectors(deps.metrics, {
    query: metricQueries(sql),
    caches: () => {
      const s = deps.hotCache.stats();
      return { transcripts: s.transcripts, videos: s.videos };
    },
    youtubeIdentities: () => yt.egressStore.states(yt.youtube.identities),
    pools: () => poolStats(queue),
  });
}

/** The database pool, the stored secrets and the blob store, checked: a start that fails here leaves nothing open. */
async function openStorage(config: Config, url: string, embedded: EmbeddedDatabase | undefined) {
  await migrateDatabase(url);
  const { sql } = connect(url, { max: APP_POOL_MAX });
  const signingSecret = config.SIGNING_SECRET ?? (await storedSigningSecret(sql, randomBytes(32).toString('hex')));
  // Signs OAuth access tokens; its own secret, so rotating SIGNING_SECRET (frame URLs) does not sign MCP clients out.
  const oauthSecret = await storedSecret(sql, 'oauth_token_secret', randomBytes(32).toString('hex'));
  const blobs = await createBlobStore(config, sql);
  // A missing bucket or refused credentials stop the start with a clear message, not the first frame request.
  try {
    await blobs.check?.();
  } catch (err) {
    blobs.destroy?.();
    await sql.end({ timeout: 5 });
    await embedded?.stop();
    throw err;
  }
  return { sql, signingSecret, oauthSecret, blobs };
}

/** Each decipher attempt with a player script build: /metrics (every series from 0), and the cluster's record. */
function playerScriptUses(sql: Sql, metrics: Metrics, log: Logger): (use: PlayerScriptUse) => void {
  const store = createPlayerScriptStore(sql);
  for (const variant of PLAYER_VARIANTS)
    for (const outcome of ['ok', 'failed']) metrics.youtubeDecipher.inc({ variant, outcome }, 0);
  return (use) => {
    metrics.youtubeDecipher.inc({ variant: use.variant, outcome: use.outcome });
    store.record(use).catch((err: unknown) => log.warn({ err: String(err) }, 'youtube player script use not recorded'));
  };
}

/** The YouTube video source and lister, sharing one egress budget, the PO token provider they use and the options. */
function youtubeParts(
  config: Config,
  log: Logger,
  sql: Sql,
  metrics: Metrics,
  poTokens: ReturnType<typeof createPoTokenProvider>,
) {
  const egressStore = createEgressStore(sql);
  // One set of budgets and cool-downs for every request to YouTube: videos, captions, streams and listing pages.
  const egress = {
    store: egressStore,
    budgetPerHour: config.YOUTUBE_REQUESTS_PER_HOUR,
    signedInPerHour: config.YOUTUBE_AGE_GATE_PER_HOUR,
    cooldownBaseSeconds: config.YOUTUBE_COOLDOWN_SECONDS,
    cooldownMaxSeconds: config.YOUTUBE_COOLDOWN_MAX_SECONDS,
    onOutcome: (o: Outcome) =>
      metrics.youtubeAttempts.inc({ client: o.client, purpose: o.purpose, identity: o.identity, kind: o.kind }),
  };
  const residentialStore = createResidentialStore(sql);
  const residential = {
    budget: createResidentialBudget(residentialStore, {
      perHour: config.YOUTUBE_RESIDENTIAL_BYTES_PER_HOUR,
      perDay: config.YOUTUBE_RESIDENTIAL_BYTES_PER_DAY,
    }),
    onBytes: (identity: string, purpose: string, direction: 'request' | 'response', bytes: number) =>
      metrics.youtubeResidentialBytes.inc({ identity, purpose, direction }, bytes),
  };
  const youtubeOptions = youtubeSourceOptions(config, {
    poTokens,
    egress,
    residential,
    log: log.child({ component: 'youtube' }),
    onTokenMinted: (provider, path) => metrics.youtubePoTokenMints.inc({ provider, path }),
    onClientRetired: (client, version) => metrics.youtubeClientRetired.set({ client, version }, 1),
    onPlayerScript: playerScriptUses(sql, metrics, log),
  });
  const youtube = lazyYoutubeSource(youtubeOptions);
  // Every client of every chain has its series from the start (at 0), so a rate over it reads 0, not "no data".
  for (const [purpose, clients] of Object.entries(youtube.chains)) {
    for (const client of clients)
      for (const identity of youtube.identities)
        metrics.youtubeAttempts.inc({ client, purpose, identity, kind: 'served' }, 0);
  }
  // Every client version sent has its retired series from the start (0), so an alert on it has something to read.
  for (const [client, id] of Object.entries(clientIdentities(config.YOUTUBE_CLIENT_VERSIONS)))
    metrics.youtubeClientRetired.set({ client, version: id.version }, 0);
  const lister = lazyYoutubeLister({
    baseUrl: config.YOUTUBE_BASE_URL,
    proxyUrls: config.YOUTUBE_PROXY_URLS,
    cookie: config.YOUTUBE_COOKIE,
    visitorData: config.YOUTUBE_VISITOR_DATA,
    timeoutMs: config.YOUTUBE_TIMEOUT_MS,
    egress,
  });
  return { youtube, youtubeOptions, lister, egressStore, poTokens };
}

/** Everything that fetches media by URL (frames, probes, speech), all through one gateway that refuses private hosts. */
function mediaParts(config: Config, log: Logger, ffmpegPath: string, overrides: Partial<Deps>) {
  const customOrigin =
    config.YOUTUBE_BASE_URL !== 'https://www.youtube.com' ? [new URL(config.YOUTUBE_BASE_URL).origin] : [];
  const mediaGateway =
    overrides.mediaGateway ?? createMediaGateway({ allowed: parseAllowedNetworks(config.MEDIA_ALLOWED_NETWORKS) });
  // ffmpeg fetches a YouTube stream through the egress identity that got its URL: the same proxies, by identity name.
  const youtubeProxies = createProxyPool(config.YOUTUBE_PROXY_URLS);
  const egress = (identity: string) => youtubeProxies.dispatcher(identity) as Dispatcher | undefined;
  const media = createMediaProber({
    ffprobePath: ffprobeBeside(ffmpegPath),
    gateway: mediaGateway,
    timeoutMs: config.FRAME_TIMEOUT_MS,
  });
  const frames = createFfmpegFrameGrabber({
    ffmpegPath,
    extraOrigins: customOrigin,
    timeoutMs: config.FRAME_TIMEOUT_MS,
    maxConcurrent: config.FRAME_CONCURRENCY,
    gateway: mediaGateway,
    egress,
  });
  const speech = createSpeech(config, {
    ffmpegPath,
    extraOrigins: customOrigin,
    gateway: mediaGateway,
    egress,
    log: log.child({ component: 'speech' }),
  });
  return { media, mediaGateway, frames, speech };
}

/** The Anthropic client, loaded on first use; none without an API key. */
function llmFor(config: Config, log: Logger) {
  if (!config.ANTHROPIC_API_KEY) return null;
  const apiKey = config.ANTHROPIC_API_KEY;
  return lazyLlm(config.LLM_MODEL ?? DEFAULT_LLM_MODEL, async () =>
    (await import('./infra/llm/anthropic-llm.ts')).createAnthropicLlm({
      apiKey,
      baseURL: config.ANTHROPIC_BASE_URL,
      model: config.LLM_MODEL ?? DEFAULT_LLM_MODEL,
      timeoutMs: config.LLM_TIMEOUT_MS,
      maxRetries: 4,
      log: log.child({ component: 'llm' }),
    }),
  );
}

/** `issuer` is read at each token, so a test that overrides publicUrl signs with its own. */
function oauthPorts(config: Config, sql: Sql, secret: string, issuer: () => string): OAuthPorts {
  return {
    store: createOAuthStore(sql),
    tokens: createAccessTokens({ secret, issuer, ttlSeconds: config.OAUTH_ACCESS_TOKEN_TTL_SECONDS }),
    verifyPkce: verifyChallenge,
    clientDocuments: createClientDocuments(),
    resources: () => scopeResources(issuer()),
  };
}

function poolStats(queue: JobQueue) {
  // pg-boss does not type the pool behind getDb(): it is node-postgres's Pool.
  const p = (
    queue.boss.getDb() as unknown as { pool?: { totalCount: number; idleCount: number; waitingCount: number } }
  ).pool;
  return {
    app: { max: APP_POOL_MAX },
    queue: { max: QUEUE_POOL_MAX, total: p?.totalCount, idle: p?.idleCount, waiting: p?.waitingCount },
  };
}

interface Owned {
  sql: Sql;
  queue: JobQueue;
  lastUsed: ReturnType<typeof createLastUsedRecorder>;
  blobs: Awaited<ReturnType<typeof createBlobStore>>;
  poTokens: ReturnType<typeof createPoTokenProvider>;
  embedded: EmbeddedDatabase | undefined;
}

/** The deps with the two ways to stop: drain the jobs this instance holds, then close what the build opened. */
function runtime(deps: Deps, { sql, queue, lastUsed, blobs, poTokens, embedded }: Owned): Runtime {
  return {
    deps,
    async drainJobs(timeoutMs) {
      // pg-boss 12: stop() with graceful waits for the handlers (until timeout), then fails the rest
      // (node_modules/pg-boss/dist/index.js #doStop -> manager.failWip); close: false keeps its pool for close().
      await queue.boss.stop({ graceful: true, close: false, timeout: timeoutMs });
    },
    async close() {
      await lastUsed.stop();
      await poTokens?.close?.();
      blobs.destroy?.();
      await queue.stop().catch(() => {});
      await deps.mediaGateway.stop().catch(() => {});
      await sql.end({ timeout: 5 });
      await embedded?.stop();
    },
  };
}
