import { z } from 'zod';
import { parseAllowedNetworks } from './allowed-networks.ts';

const list = z.string().transform((s) =>
  s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean),
);

/** Comma-separated CIDRs, addresses and host names, checked at boot (src/allowed-networks.ts). */
const allowedNetworks = list
  .refine(
    (v) => {
      try {
        parseAllowedNetworks(v);
        return true;
      } catch {
        return false;
      }
    },
    { error: 'list CIDRs (10.0.0.0/8), addresses or host names, comma-separated' },
  )
  .default([]);

/** InnerTube clients youtubei.js can speak as (its SUPPORTED_CLIENTS), yt-dlp's TV_DOWNGRADED, and the watch page. */
const YOUTUBE_CLIENTS = [
  'IOS',
  'WEB',
  'MWEB',
  'YTKIDS',
  'YTMUSIC',
  'ANDROID',
  'ANDROID_VR',
  'VISIONOS',
  'YTSTUDIO_ANDROID',
  'YTMUSIC_ANDROID',
  'TV',
  'TV_SIMPLY',
  'TV_EMBEDDED',
  'TV_DOWNGRADED',
  'WEB_EMBEDDED',
  'WEB_CREATOR',
  'WATCH_PAGE',
] as const;
/** An ordered client chain: comma-separated names, any case; unset keeps the default (src/infra/youtube/client-chains.ts). */
const clientChain = z
  .string()
  .transform((s) =>
    s
      .split(',')
      .map((x) => x.trim().toUpperCase())
      .filter(Boolean),
  )
  .pipe(
    z
      .array(z.enum(YOUTUBE_CLIENTS, { error: `a client chain lists names from: ${YOUTUBE_CLIENTS.join(', ')}` }))
      .min(1),
  )
  .optional();
const PROXY_URL = /^(https?|socks5?):\/\/[^\s/]+/i;

/** The whole environment the service reads. Nothing else reads process.env. */
export const ConfigSchema = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().default('0.0.0.0'),
    /** Public origin used in links (frame URLs, docs). Defaults to http://localhost:PORT. */
    PUBLIC_URL: z.url().optional(),
    DATABASE_URL: z.string().optional(),
    /** Where the embedded PostgreSQL keeps its data when DATABASE_URL is unset. */
    DATA_DIR: z.string().default('./.data'),
    MODE: z.enum(['all', 'api', 'worker']).default('all'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    DAILY_FREE_CREDITS: z.coerce.number().int().min(0).default(10),
    RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(60),
    /** Free video lookups (GET /videos/{id}, its tracks) that reach YouTube, per account per 10 minutes. */
    FREE_LOOKUPS_PER_10_MIN: z.coerce.number().int().min(0).default(30),
    /** Upstream lookups (metadata, handles, probes, listing pages) one account may have in flight on an instance. */
    /** Open MCP `subscriptions/listen` streams per key and per account, on each instance. */
    MCP_LISTEN_STREAMS_PER_KEY: z.coerce.number().int().min(1).default(5),
    MCP_LISTEN_STREAMS_PER_ACCOUNT: z.coerce.number().int().min(1).default(20),
    LOOKUPS_IN_FLIGHT_PER_ACCOUNT: z.coerce.number().int().min(1).default(4),
    /** Upstream lookups per minute across every instance and account; 0: no shared budget. */
    LOOKUP_EGRESS_PER_MINUTE: z.coerce.number().int().min(0).default(600),
    /** Secret for signed frame URLs and sessions; generated and stored in the database when unset. */
    SIGNING_SECRET: z.string().min(32).optional(),
    MAX_BODY_BYTES: z.coerce
      .number()
      .int()
      .min(1024)
      .default(64 * 1024),
    /**
     * Memory for stored transcripts, video rows and rendered answers kept in front of PostgreSQL, in MiB (0: no cache).
     * 32 holds about 200 hour-long transcripts; a full cache is resident on top of the idle ~130 MiB, and V8 and malloc
     * hold more than the budget while entries churn, so the default keeps a busy instance near 300 MiB.
     */
    CACHE_MAX_MB: z.coerce.number().int().min(0).max(65536).default(32),
    /** Who may create an account on the website: anyone, no one, or holders of an invite made with the CLI. */
    SIGN_UP: z.enum(['open', 'closed', 'invite']).default('open'),
    /** Days an account made by open sign-up waits before the daily free allowance applies (0: at once). */
    NEW_ACCOUNT_FREE_DELAY_DAYS: z.coerce.number().int().min(0).max(365).default(0),
    /** Failed sign-ins per (email, client address) before that pair waits 1 minute, doubling per failure up to 1 hour. */
    SIGN_IN_FREE_FAILURES: z.coerce.number().int().min(1).max(1000).default(5),
    /** Sign-ins per email per 15 minutes, all addresses together, past which every failing address waits at once. */
    SIGN_IN_EMAIL_CEILING: z.coerce.number().int().min(1).default(50),
    /** Website sign-in attempts allowed per client IP, all emails together, in each 15-minute window. */
    SIGN_IN_MAX_PER_IP: z.coerce.number().int().min(1).default(100),
    /**
     * Browser origins (scheme://host[:port], comma-separated) allowed to call /mcp besides PUBLIC_URL's own; any other
     * Origin is refused with 403 (DNS rebinding). Requests without Origin (every non-browser client) are unaffected.
     */
    MCP_ALLOWED_ORIGINS: list.pipe(z.array(z.url({ protocol: /^https?$/ }))).default([]),
    /**
     * Browser origins (scheme://host[:port], comma-separated) whose pages may call /api/v1 and /trpc with an OAuth
     * access token (CORS, no cookies); unset: no cross-origin page may read an answer.
     */
    API_ALLOWED_ORIGINS: list.pipe(z.array(z.url({ protocol: /^https?$/ }))).default([]),
    /** Behind a reverse proxy: take the client IP from the last X-Forwarded-For hop instead of the socket. */
    TRUST_PROXY: z
      .enum(['true', 'false', '1', '0'])
      .default('false')
      .transform((v) => v === 'true' || v === '1'),

    YOUTUBE_BASE_URL: z.url().default('https://www.youtube.com'),
    /** Egress identities: http://, https:// or socks5:// proxies (credentials in the URL); unset: the machine's own address. */
    YOUTUBE_PROXY_URLS: list
      .pipe(z.array(z.string().regex(PROXY_URL, 'a proxy URL is http://, https:// or socks5://host[:port]')))
      .default([]),
    /**
     * Residential proxies (same URL forms), asked only for player and caption-list requests after YouTube's bot check
     * meets every cheaper identity; paid by the byte, so budgeted below.
     */
    YOUTUBE_RESIDENTIAL_PROXY_URLS: list
      .pipe(z.array(z.string().regex(PROXY_URL, 'a proxy URL is http://, https:// or socks5://host[:port]')))
      .default([]),
    /** Bytes (sent and received) all residential proxies together may carry per clock hour, across instances. */
    YOUTUBE_RESIDENTIAL_BYTES_PER_HOUR: z.coerce.number().int().min(0).default(20_000_000),
    /** ... and per UTC day. */
    YOUTUBE_RESIDENTIAL_BYTES_PER_DAY: z.coerce.number().int().min(0).default(200_000_000),
    YOUTUBE_COOKIE: z.string().optional(),
    /** One static PO token: the last resort (tokens are bound to one video); a provider below is what works. */
    YOUTUBE_PO_TOKEN: z.string().optional(),
    YOUTUBE_VISITOR_DATA: z.string().optional(),
    /**
     * A signed-in identity for age-gated videos only: a Netscape cookies.txt of a YouTube account, asked after the
     * anonymous fallbacks (WEB_EMBEDDED, TV_DOWNGRADED) also hit the age gate. Off by default: the account can be banned.
     */
    YOUTUBE_AGE_GATE_COOKIES_FILE: z.string().min(1).optional(),
    /** Requests sent as that account per hour, across the cluster: callers cannot use it more often than this. */
    YOUTUBE_AGE_GATE_PER_HOUR: z.coerce.number().int().min(0).default(20),
    YOUTUBE_TIMEOUT_MS: z.coerce.number().int().min(1000).default(15_000),
    /** Client chains per purpose (e.g. "ANDROID,VISIONOS,WEB,WATCH_PAGE"); unset: the defaults the evidence supports. */
    YOUTUBE_CAPTION_CLIENTS: clientChain,
    YOUTUBE_METADATA_CLIENTS: clientChain,
    YOUTUBE_STREAM_CLIENTS: clientChain,
    /** A bgutil-ytdlp-pot-provider server (e.g. http://bgutil:4416) minting a PO token per video for the web clients. */
    YOUTUBE_POT_PROVIDER_URL: z.url({ protocol: /^https?$/ }).optional(),
    /** Mint PO tokens in this process (bgutils-js + jsdom in a worker thread) when no provider URL is set. */
    YOUTUBE_POT_IN_PROCESS: z
      .enum(['true', 'false', '1', '0'])
      .default('false')
      .transform((v) => v === 'true' || v === '1'),
    /** Requests to YouTube each egress identity may make per hour (all instances together). */
    YOUTUBE_REQUESTS_PER_HOUR: z.coerce.number().int().min(1).default(1000),
    /**
     * Caption downloads (timedtext) each egress identity may make per hour: a budget and 429 backoff of their own,
     * apart from player requests (timedtext meets 429s sooner: yt-dlp/yt-dlp#13831, 60 in 5 minutes was enough).
     */
    YOUTUBE_CAPTION_REQUESTS_PER_HOUR: z.coerce.number().int().min(1).default(300),
    /**
     * Client versions over the built-in table (src/infra/youtube/client-identities.ts), "ANDROID=21.30.1,IOS=21.30.2":
     * the way on when YouTube retires a version (400 FAILED_PRECONDITION), without a release.
     */
    YOUTUBE_CLIENT_VERSIONS: list
      .transform((items, ctx) => {
        const out: Record<string, string> = {};
        for (const item of items) {
          const m = /^([A-Za-z_]+)=(\d+(?:\.\d+)+)$/.exec(item);
          if (!m || !['ANDROID', 'IOS', 'MWEB', 'TV_DOWNGRADED', 'VISIONOS'].includes(m[1]!.toUpperCase())) {
            ctx.addIssue({
              code: 'custom',
              message: `"${item}": write CLIENT=VERSION for ANDROID, IOS, MWEB, TV_DOWNGRADED or VISIONOS (e.g. ANDROID=21.30.1)`,
            });
            return z.NEVER;
          }
          out[m[1]!.toUpperCase()] = m[2]!;
        }
        return out;
      })
      .default({}),
    /** First cool-down of an identity YouTube refused (doubling per refusal in a row); 0 turns cooling off. */
    YOUTUBE_COOLDOWN_SECONDS: z.coerce.number().int().min(0).default(300),
    YOUTUBE_COOLDOWN_MAX_SECONDS: z.coerce
      .number()
      .int()
      .min(1)
      .default(6 * 3600),

    /** Videos (with captions) the canary checks through every client of every chain; empty: no scheduled canary. */
    YOUTUBE_CANARY_VIDEOS: list
      .pipe(z.array(z.string().regex(/^[\w-]{11}$/, 'a YouTube video id is 11 characters of A-Z a-z 0-9 _ -')))
      .default([]),
    /** How often the canary runs (once across instances): seconds, or a duration such as "15m", "1h"; at least 60 s. */
    YOUTUBE_CANARY_INTERVAL: z
      .string()
      .default('15m')
      .transform((s, ctx) => {
        const m = /^(\d+)\s*(s|m|h)?$/.exec(s.trim());
        const seconds = m ? Number(m[1]) * { s: 1, m: 60, h: 3600 }[(m[2] ?? 's') as 's' | 'm' | 'h'] : Number.NaN;
        if (!(seconds >= 60)) {
          ctx.addIssue({
            code: 'custom',
            message: 'seconds, or a number with s, m or h ("900", "15m", "1h"); at least 60 s',
          });
          return z.NEVER;
        }
        return seconds;
      }),

    EXTRACTION_CONCURRENCY: z.coerce.number().int().min(1).default(4),
    FRAME_CONCURRENCY: z.coerce.number().int().min(1).default(2),
    LLM_CONCURRENCY: z.coerce.number().int().min(1).default(2),
    /** Jobs allowed to wait per queue before new work is refused with 503 SERVICE_BUSY. */
    QUEUE_MAX_WAITING: z.coerce.number().int().min(0).default(100),
    /**
     * One account's jobs queued or running per queue (extract, frames, speech) before its next is refused with 429
     * RATE_LIMITED; of them, at most half of QUEUE_MAX_WAITING (rounded up) may be waiting. 0 turns the cap off.
     */
    QUEUE_MAX_WAITING_PER_ACCOUNT: z.coerce.number().int().min(0).default(10),
    /**
     * A job whose worker stopped sending heartbeats (killed, lost) this many seconds ago is retried by another
     * worker (plus up to 5 s for the supervisor to notice). Live workers refresh their heartbeat every half of it.
     */
    JOB_EXPIRE_SECONDS: z.coerce.number().int().min(10).max(3600).default(20),
    /** How long a request waits for its job before answering (REST/MCP clients give up near 60 s). */
    REQUEST_WAIT_MS: z.coerce.number().int().min(100).default(50_000),

    FFMPEG_PATH: z.string().optional(),
    FRAME_TIMEOUT_MS: z.coerce.number().int().min(1000).default(20_000),
    BLOB_DIR: z.string().optional(),
    /** Frames in an S3-compatible bucket (presigned GET URLs) instead of PostgreSQL or BLOB_DIR. */
    S3_BUCKET: z.string().min(3).max(63).optional(),
    S3_REGION: z.string().default('us-east-1'),
    /** An S3-compatible server (MinIO, R2, Ceph, ...); unset for AWS S3. */
    S3_ENDPOINT: z.url().optional(),
    /** Origin written into presigned URLs when clients reach the store under another name than the service does. */
    S3_PUBLIC_ENDPOINT: z.url().optional(),
    S3_FORCE_PATH_STYLE: z
      .enum(['true', 'false', '1', '0'])
      .default('false')
      .transform((v) => v === 'true' || v === '1'),
    /** Unset: the AWS SDK's default chain (AWS_* environment, shared files, instance or task role). */
    S3_ACCESS_KEY_ID: z.string().optional(),
    S3_SECRET_ACCESS_KEY: z.string().optional(),
    /** Prepended to every object key (e.g. "subtext/"). */
    S3_PREFIX: z.string().max(200).default(''),
    S3_TIMEOUT_MS: z.coerce.number().int().min(1000).default(15_000),

    ANTHROPIC_API_KEY: z.string().optional(),
    ANTHROPIC_BASE_URL: z.url().optional(),
    LLM_MODEL: z.string().optional(),
    LLM_TIMEOUT_MS: z.coerce.number().int().min(1000).default(120_000),

    /**
     * Speech-to-text for videos without captions. `auto`: the OpenAI-compatible server when STT_BASE_URL is set, else
     * the local engine when Debian's pocketsphinx is installed, else none. `off`: never.
     */
    STT_ENGINE: z.enum(['auto', 'openai-compatible', 'local', 'off']).default('auto'),
    /** An OpenAI-compatible transcription server (speaches, whisper.cpp's server, Groq, OpenAI): POST {base}/v1/audio/transcriptions. */
    STT_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
    STT_API_KEY: z.string().optional(),
    STT_MODEL: z.string().min(1).default('whisper-1'),
    /** Ask the OpenAI-compatible engine for speakers (response_format diarized_json, e.g. gpt-4o-transcribe-diarize). */
    STT_DIARIZE: z
      .enum(['true', 'false', '1', '0'])
      .default('false')
      .transform((v) => v === 'true' || v === '1'),
    /** Time allowed for one chunk (up to 10 minutes of audio) at the engine. */
    STT_TIMEOUT_MS: z.coerce.number().int().min(1000).default(300_000),
    /** Speech-to-text jobs running at once across all instances (the local engine takes one core each). */
    STT_CONCURRENCY: z.coerce.number().int().min(1).default(1),
    /**
     * Speech-to-text jobs one account's requests may have running at once (its others wait, and other accounts'
     * jobs overtake them). Below STT_CONCURRENCY, no single account can hold every slot with slow media.
     */
    STT_ACCOUNT_CONCURRENCY: z.coerce.number().int().min(1).default(1),
    /**
     * Time allowed for reading and decoding one job's audio (30 min). A media server that sends slowly (or a little,
     * then nothing) holds a speech-to-text slot at most this long; too low, and long audio on a slow link fails.
     */
    STT_DECODE_TIMEOUT_MS: z.coerce.number().int().min(1000).default(1_800_000),
    /**
     * Longest audio transcribed, in seconds (4 h). At most 5 h: a batch item waits for a speech-to-text job and its
     * retry (twice the audio's length each, plus slack), and a queued job may not expire later than 24 h (pg-boss).
     */
    STT_MAX_SECONDS: z.coerce
      .number()
      .int()
      .min(1)
      .max(5 * 3600)
      .default(4 * 3600),
    /** Largest audio stream read, in bytes (1 GiB). */
    STT_MAX_BYTES: z.coerce
      .number()
      .int()
      .min(1024)
      .default(1024 * 1024 * 1024),

    SEARCH_BACKEND: z.enum(['postgres', 'typesense']).default('postgres'),
    TYPESENSE_URL: z.url().optional(),
    TYPESENSE_API_KEY: z.string().optional(),

    /** First webhook retry delay; each next one doubles (up to 2 h), for up to a day. */
    WEBHOOK_RETRY_BASE_MS: z.coerce.number().int().min(10).default(30_000),
    /** Allow http:// callback URLs (they must still resolve to public addresses). */
    WEBHOOK_ALLOW_HTTP: z
      .enum(['true', 'false', '1', '0'])
      .default('false')
      .transform((v) => v === 'true' || v === '1'),
    /** Watches (POST /watches) one account may have. */
    WATCHES_PER_ACCOUNT: z.coerce.number().int().min(1).max(10_000).default(20),
    /** The shortest interval between two checks of a watch, in seconds. */
    WATCH_MIN_INTERVAL_SECONDS: z.coerce.number().int().min(1).default(3600),
    /** Listing pages one check of a watch reads at most (each one request to YouTube, under its budgets). */
    WATCH_PAGES_PER_CHECK: z.coerce.number().int().min(1).max(20).default(3),
    /** Failed checks in a row after which a watch is paused with its reason. */
    WATCH_MAX_FAILURES: z.coerce.number().int().min(1).max(100).default(5),
    /** How often (seconds) the cluster looks for due watches; one look per period across instances. */
    WATCH_TICK_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
    /** The operator's own networks webhooks may reach (CIDRs, addresses, host names); empty: public addresses only. */
    WEBHOOK_ALLOWED_NETWORKS: allowedNetworks,
    /** The operator's own networks direct media URLs may reach (CIDRs, addresses, host names; http allowed there). */
    MEDIA_ALLOWED_NETWORKS: allowedNetworks,
    /** Lifetime of OAuth access tokens for /mcp (clients refresh them with their rotating refresh token). */
    OAUTH_ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(60).max(86_400).default(900),
    /** Bearer token for /metrics; unset: /metrics is served only on METRICS_PORT (if set). */
    METRICS_TOKEN: z.string().min(16).optional(),
    /** A second listener with /metrics, /healthz and /readyz only (workers too); unset: none. */
    METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),

    /** Searched for an ffmpeg binary when FFMPEG_PATH is unset. */
    PATH: z.string().default(''),
  })
  .superRefine((c, ctx) => {
    if (c.S3_BUCKET && c.BLOB_DIR)
      ctx.addIssue({ code: 'custom', path: ['S3_BUCKET'], message: 'set S3_BUCKET or BLOB_DIR, not both' });
    if (!!c.S3_ACCESS_KEY_ID !== !!c.S3_SECRET_ACCESS_KEY) {
      ctx.addIssue({
        code: 'custom',
        path: ['S3_ACCESS_KEY_ID'],
        message: 'set both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or neither',
      });
    }
    if (c.STT_ENGINE === 'openai-compatible' && !c.STT_BASE_URL) {
      ctx.addIssue({ code: 'custom', path: ['STT_ENGINE'], message: 'openai-compatible needs STT_BASE_URL' });
    }
    if (c.SEARCH_BACKEND === 'typesense' && (!c.TYPESENSE_URL || !c.TYPESENSE_API_KEY)) {
      ctx.addIssue({
        code: 'custom',
        path: ['SEARCH_BACKEND'],
        message: 'typesense needs TYPESENSE_URL and TYPESENSE_API_KEY',
      });
    }
  });
export type Config = z.infer<typeof ConfigSchema>;

export class ConfigError extends Error {}

export function parseConfig(env: Record<string, string | undefined>): Config {
  // Empty strings mean "unset", as in most .env files.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const result = ConfigSchema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return result.data;
}
