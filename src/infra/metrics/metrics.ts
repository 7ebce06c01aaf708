import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Seconds; from a cached transcript (milliseconds) to an LLM article (minutes). */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
const WAIT_BUCKETS = [0.01, 0.05, 0.1, 0.5, 1, 2, 5, 10, 30, 60, 300, 900];

/**
 * This process's instruments, in a registry of its own (never prom-client's global one, so two services in one
 * test process do not mix). Series read from PostgreSQL at scrape time are added by `addScrapeCollectors`.
 */
export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'subtext_' });
  return {
    registry,
    ...requestInstruments(registry),
    jobs: new Counter({
      name: 'subtext_jobs_total',
      help: 'Jobs this process ran to an end, by queue and state (completed, failed, retried)',
      labelNames: ['queue', 'state'] as const,
      registers: [registry],
    }),
    jobWaitSeconds: new Histogram({
      name: 'subtext_job_wait_seconds',
      help: 'Time from enqueue to a worker starting the job, by queue',
      labelNames: ['queue'] as const,
      buckets: WAIT_BUCKETS,
      registers: [registry],
    }),
    ...youtubeInstruments(registry),
    jobRunSeconds: new Histogram({
      name: 'subtext_job_run_seconds',
      help: 'Time a worker spent on the job, by queue',
      labelNames: ['queue'] as const,
      buckets: WAIT_BUCKETS,
      registers: [registry],
    }),
  };
}

function requestInstruments(registry: Registry) {
  return {
    /** One per procedure call on any surface; status is the HTTP status the call answered (or would on REST). */
    requests: new Counter({
      name: 'subtext_requests_total',
      help: 'Procedure calls by surface (rest, mcp, trpc), procedure and HTTP status',
      labelNames: ['surface', 'procedure', 'status'] as const,
      registers: [registry],
    }),
    requestSeconds: new Histogram({
      name: 'subtext_request_duration_seconds',
      help: 'Procedure call latency by surface and procedure',
      labelNames: ['surface', 'procedure'] as const,
      buckets: LATENCY_BUCKETS,
      registers: [registry],
    }),
    /** Procedure calls answered before tRPC from stored bytes (a `meta.stored` read); also in `requests`. */
    storedReads: new Counter({
      name: 'subtext_stored_reads_total',
      help: 'Procedure calls answered from stored bytes before tRPC, by surface and procedure',
      labelNames: ['surface', 'procedure'] as const,
      registers: [registry],
    }),
    /** Every HTTP response, including those no procedure answered (401 before MCP, 404, signed frames, website). */
    http: new Counter({
      name: 'subtext_http_requests_total',
      help: 'HTTP responses by method, route pattern and status',
      labelNames: ['method', 'route', 'status'] as const,
      registers: [registry],
    }),
    httpSeconds: new Histogram({
      name: 'subtext_http_request_duration_seconds',
      help: 'HTTP response latency by route pattern',
      labelNames: ['route'] as const,
      buckets: LATENCY_BUCKETS,
      registers: [registry],
    }),
  };
}

function youtubeInstruments(registry: Registry) {
  return {
    /** Every attempt of a YouTube client (player request or caption download), by what it came to. */
    youtubeAttempts: new Counter({
      name: 'subtext_youtube_attempts_total',
      help: 'YouTube client attempts made by this process, by client, purpose (captions, metadata, streams), egress identity and outcome kind (served, bot_check, rate_limited, sign_in, unplayable, empty_captions, stream_403, no_stream, no_token, network, client_retired, video, error)',
      labelNames: ['client', 'purpose', 'identity', 'kind'] as const,
      registers: [registry],
    }),
    /** Bytes through residential egress identities (paid by the byte), counted on the wire by this process. */
    youtubeResidentialBytes: new Counter({
      name: 'subtext_youtube_residential_bytes_total',
      help: 'Bytes sent (request) and received (response) through residential egress proxies by this process, by identity and purpose (captions, metadata, streams, listing, other); the cluster-wide hourly and daily totals are in `youtube status`',
      labelNames: ['identity', 'purpose', 'direction'] as const,
      registers: [registry],
    }),
    /** Each PO token minted, by provider and by where its BotGuard challenge came from (page, standalone). */
    youtubePoTokenMints: new Counter({
      name: 'subtext_youtube_po_token_mints_total',
      help: 'PO tokens minted by this process, by provider (bgutils, http, static) and challenge path: page (the web page session, what YouTube accepts since July 2026), standalone (the fallback when the page had no challenge), provider (a bgutil server, which takes the page challenge itself from 1.3.2, the oldest we accept)',
      labelNames: ['provider', 'path'] as const,
      registers: [registry],
    }),
    /** 1 for a client version YouTube refused with 400 FAILED_PRECONDITION (retired) in this process. */
    youtubeClientRetired: new Gauge({
      name: 'subtext_youtube_client_retired',
      help: '1 when YouTube refused this client version as retired (HTTP 400 FAILED_PRECONDITION from /player) in this process: set a newer one in YOUTUBE_CLIENT_VERSIONS',
      labelNames: ['client', 'version'] as const,
      registers: [registry],
    }),
    /** Each stream URL decipher attempt with a player script build (src/infra/youtube/player-scripts.ts). */
    youtubeDecipher: new Counter({
      name: 'subtext_youtube_decipher_total',
      help: 'Stream URL decipher attempts (signature, n) made by this process, by player script variant (web, then tv when web fails) and outcome (ok, failed)',
      labelNames: ['variant', 'outcome'] as const,
      registers: [registry],
    }),
    /** Set by the scheduled canary on the instance that ran it (src/jobs/youtube-canary-worker.ts). */
    youtubeCanaryOk: new Gauge({
      name: 'subtext_youtube_canary_ok',
      help: '1 when the last canary run got what it asked of this client for this purpose (info, tracks and a non-empty caption file; a stream URL) for every canary video, or (purpose decipher, client player:web or player:tv) when that player script build deciphered a signature and n, else 0',
      labelNames: ['client', 'purpose'] as const,
      registers: [registry],
    }),
    youtubeCanaryLastSuccess: new Gauge({
      name: 'subtext_youtube_canary_last_success_timestamp',
      help: 'Unix time (seconds) of the last canary run in which this client served this purpose for every canary video',
      labelNames: ['client', 'purpose'] as const,
      registers: [registry],
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

/** What the scrape-time collectors read. */
export interface ScrapeSources {
  /** Cluster-wide facts from PostgreSQL; a failed query leaves its series out of that scrape. */
  query: {
    queueJobs(): Promise<{ queue: string; state: string; count: number; oldestSeconds: number | null }[]>;
    credits(): Promise<{ operation: string; charged: number; refunded: number }[]>;
    connections(): Promise<{ state: string; count: number }[]>;
  };
  caches(): Record<string, { hits: number; misses: number; entries: number; bytes: number }>;
  /** Per pool of this process: its size limit, and what the driver tells of its use (pg's Pool does, postgres.js not). */
  pools(): Record<string, { max: number; total?: number; idle?: number; waiting?: number }>;
  /** The egress identities' state in PostgreSQL (cluster-wide). */
  youtubeIdentities?(): Promise<{ id: string; used: number; coolingUntil: Date | null; strikes: number }[]>;
}

/** Gauges and counters whose values are read when Prometheus scrapes, not kept up to date in between. */
export function addScrapeCollectors(m: Metrics, src: ScrapeSources) {
  const registers = [m.registry];
  queueCollectors(registers, src);
  creditCollectors(registers, src);
  cacheCollectors(registers, src);
  connectionCollector(registers, src);
  identityCollectors(registers, src);
  poolCollector(registers, src);
}

type Registers = Registry[];

const quiet = async <T>(p: Promise<T>): Promise<T | null> => p.catch(() => null);

function queueCollectors(registers: Registers, src: ScrapeSources): void {
  new Gauge({
    name: 'subtext_queue_jobs',
    help: 'Jobs in the queue tables by queue and state (cluster-wide: every instance reports the same)',
    labelNames: ['queue', 'state'] as const,
    registers,
    async collect() {
      this.reset();
      for (const r of (await quiet(src.query.queueJobs())) ?? []) this.set({ queue: r.queue, state: r.state }, r.count);
    },
  });
  new Gauge({
    name: 'subtext_queue_oldest_waiting_seconds',
    help: 'Age of the oldest job waiting to start, by queue (0 when none waits; cluster-wide)',
    labelNames: ['queue'] as const,
    registers,
    async collect() {
      this.reset();
      const rows = (await quiet(src.query.queueJobs())) ?? [];
      const oldest = new Map<string, number>();
      for (const r of rows) {
        const prev = oldest.get(r.queue) ?? 0;
        const age = r.state === 'created' || r.state === 'retry' ? (r.oldestSeconds ?? 0) : 0;
        oldest.set(r.queue, Math.max(prev, age));
      }
      for (const [queue, age] of oldest) this.set({ queue }, age);
    },
  });
}

function creditCollectors(registers: Registers, src: ScrapeSources): void {
  new Counter({
    name: 'subtext_credits_charged_total',
    help: 'Credits charged, by operation, from the credit ledger (cluster-wide: every instance reports the same)',
    labelNames: ['operation'] as const,
    registers,
    async collect() {
      this.reset();
      for (const r of (await quiet(src.query.credits())) ?? []) this.inc({ operation: r.operation }, r.charged);
    },
  });
  new Counter({
    name: 'subtext_credits_refunded_total',
    help: 'Credits refunded, by operation, from the credit ledger (cluster-wide)',
    labelNames: ['operation'] as const,
    registers,
    async collect() {
      this.reset();
      for (const r of (await quiet(src.query.credits())) ?? []) this.inc({ operation: r.operation }, r.refunded);
    },
  });
}

function cacheCollectors(registers: Registers, src: ScrapeSources): void {
  new Counter({
    name: 'subtext_cache_lookups_total',
    help: 'In-memory cache lookups by cache and result (hit, miss); hit ratio = hit / (hit + miss)',
    labelNames: ['cache', 'result'] as const,
    registers,
    collect() {
      this.reset();
      for (const [cache, s] of Object.entries(src.caches())) {
        this.inc({ cache, result: 'hit' }, s.hits);
        this.inc({ cache, result: 'miss' }, s.misses);
      }
    },
  });
  new Gauge({
    name: 'subtext_cache_bytes',
    help: 'Estimated bytes held by each in-memory cache',
    labelNames: ['cache'] as const,
    registers,
    collect() {
      for (const [cache, s] of Object.entries(src.caches())) this.set({ cache }, s.bytes);
    },
  });
}

function connectionCollector(registers: Registers, src: ScrapeSources): void {
  new Gauge({
    name: 'subtext_db_connections',
    help: 'Connections to the service database by state (pg_stat_activity; every client of the database, cluster-wide)',
    labelNames: ['state'] as const,
    registers,
    async collect() {
      this.reset();
      for (const r of (await quiet(src.query.connections())) ?? []) this.set({ state: r.state }, r.count);
    },
  });
}

function identityCollectors(registers: Registers, src: ScrapeSources): void {
  new Gauge({
    name: 'subtext_youtube_identity_requests',
    help: "Requests each egress identity has taken from this hour's budget (cluster-wide: every instance reports the same)",
    labelNames: ['identity'] as const,
    registers,
    async collect() {
      this.reset();
      for (const r of (await quiet(src.youtubeIdentities?.() ?? Promise.resolve([]))) ?? [])
        this.set({ identity: r.id }, r.used);
    },
  });
  new Gauge({
    name: 'subtext_youtube_identity_cooling_seconds',
    help: 'Seconds until each egress identity may be used again after YouTube refused it; 0 when usable (cluster-wide)',
    labelNames: ['identity'] as const,
    registers,
    async collect() {
      this.reset();
      for (const r of (await quiet(src.youtubeIdentities?.() ?? Promise.resolve([]))) ?? []) {
        this.set({ identity: r.id }, r.coolingUntil ? Math.max(0, (r.coolingUntil.getTime() - Date.now()) / 1000) : 0);
      }
    },
  });
}

function poolCollector(registers: Registers, src: ScrapeSources): void {
  new Gauge({
    name: 'subtext_db_pool',
    help: 'Connection pools of this process (app: queries, queue: pg-boss) by stat: max, total, idle, waiting',
    labelNames: ['pool', 'stat'] as const,
    registers,
    collect() {
      this.reset();
      for (const [pool, stats] of Object.entries(src.pools())) {
        for (const [stat, value] of Object.entries(stats))
          if (typeof value === 'number') this.set({ pool, stat }, value);
      }
    },
  });
}
