// `youtube status`: what an operator needs to see which YouTube client or route broke today: the chains in force,
// the PO token provider, each egress identity's budget and cool-down, and what every client's attempts came to
// (cluster-wide, from PostgreSQL) over the last hours.
import type { Sql } from '../../db/client.ts';
import type { Config } from '../config.ts';
import { captionBudgetStore, OUTCOME_KINDS, type IdentityState, type OutcomeCount } from '../domain/youtube/egress.ts';
import { createEgressStore } from '../infra/postgres/youtube-egress.ts';
import { resolveChains } from '../infra/youtube/client-chains.ts';
import { clientIdentities } from '../infra/youtube/client-identities.ts';
import type { ResidentialUsage } from '../domain/youtube/residential-budget.ts';
import { createResidentialStore } from '../infra/postgres/youtube-residential.ts';
import { createPlayerScriptStore } from '../infra/postgres/youtube-player-scripts.ts';
import type { PlayerScriptRow } from '../domain/youtube/player-scripts.ts';
import { playerScriptUrl } from '../infra/youtube/player-script-urls.ts';
import { withoutCredentials } from '../infra/youtube/network-error.ts';
import { createHttpTokenProvider } from '../infra/youtube/po-token/http-provider.ts';
import { proxyIdentities } from '../infra/youtube/proxy-pool.ts';
import type { Io } from './io.ts';
import { formatTable } from './format-table.ts';

export interface YoutubeStatus {
  since: string;
  chains: { captions: string[]; metadata: string[]; streams: string[] };
  tokenProvider: string;
  /** The bgutil provider's version as its GET /ping says ("2.0.1: ok"), or why it is refused or unreachable. */
  tokenProviderVersion: string | null;
  /** The newest player script of each build (web, tv) the cluster deciphered stream URLs with, and how it did. */
  playerScripts: (PlayerScriptRow & { url: string })[];
  budgetPerHour: number;
  identities: (IdentityState & { state: string })[];
  /** Each identity's caption (timedtext) budget: its own, apart from player requests. */
  captionBudgetPerHour: number;
  captionIdentities: (IdentityState & { state: string })[];
  /** What each client says it is, and how often YouTube refused its version as retired in the window. */
  clientVersions: { client: string; name: string; version: string; os: string; source: string; retired: number }[];
  clients: ClientRow[];
  byIdentity: { identity: string; tried: number; served: number; refused: number; lastReason: string | null }[];
  /** Residential egress: the cluster's byte budget, what is spent of it, and the bytes per identity and purpose. */
  residential: {
    budget: { perHour: number; perDay: number };
    spent: { hour: number; day: number };
    usage: ResidentialUsage[];
  };
}

interface ClientRow {
  client: string;
  purpose: string;
  tried: number;
  served: number;
  /** Refusals by kind, for the kinds that occurred. */
  refused: Record<string, number>;
}

function tokenProviderOf(
  config: Pick<Config, 'YOUTUBE_POT_PROVIDER_URL' | 'YOUTUBE_POT_IN_PROCESS' | 'YOUTUBE_PO_TOKEN'>,
): string {
  if (config.YOUTUBE_POT_PROVIDER_URL) return `http (${new URL(config.YOUTUBE_POT_PROVIDER_URL).origin})`;
  if (config.YOUTUBE_POT_IN_PROCESS) return 'bgutils (in process)';
  if (config.YOUTUBE_PO_TOKEN) return 'static YOUTUBE_PO_TOKEN (one video at most)';
  return 'none: web clients are left out of the default chains';
}

/** The bgutil server's version, read as the service reads it at start (below 1.3.2 is refused there). */
async function providerVersionOf(config: Pick<Config, 'YOUTUBE_POT_PROVIDER_URL'>): Promise<string | null> {
  if (!config.YOUTUBE_POT_PROVIDER_URL) return null;
  try {
    const version = await createHttpTokenProvider({
      url: config.YOUTUBE_POT_PROVIDER_URL,
      timeoutMs: 5000,
    }).checkVersion();
    return `${version}: ok`;
  } catch (e) {
    return `refused: ${withoutCredentials(e instanceof Error ? e.message : String(e))}`;
  }
}

export async function readYoutubeStatus(
  sql: Sql,
  config: Config,
  hours: number,
  now = new Date(),
): Promise<YoutubeStatus> {
  const store = createEgressStore(sql);
  const identities = proxyIdentities(config.YOUTUBE_PROXY_URLS, config.YOUTUBE_RESIDENTIAL_PROXY_URLS);
  const residentialStore = createResidentialStore(sql);
  const canMint = !!(config.YOUTUBE_POT_PROVIDER_URL || config.YOUTUBE_POT_IN_PROCESS || config.YOUTUBE_PO_TOKEN);
  const chains = resolveChains(
    {
      captions: config.YOUTUBE_CAPTION_CLIENTS,
      metadata: config.YOUTUBE_METADATA_CLIENTS,
      streams: config.YOUTUBE_STREAM_CLIENTS,
    },
    canMint,
  );
  const since = new Date(now.getTime() - hours * 3_600_000);
  const [states, captionStates, counts, spend, usage, providerVersion, scripts] = await Promise.all([
    store.states(identities),
    captionBudgetStore(store).states(identities),
    store.counts(since),
    residentialStore.spend(),
    residentialStore.usage(),
    providerVersionOf(config),
    createPlayerScriptStore(sql).latest(),
  ]);
  const budget = config.YOUTUBE_REQUESTS_PER_HOUR;
  const captionBudget = config.YOUTUBE_CAPTION_REQUESTS_PER_HOUR;
  const retired = (client: string) =>
    counts.filter((c) => c.client === client && c.kind === 'client_retired').reduce((n, c) => n + c.count, 0);
  return {
    since: since.toISOString(),
    chains,
    tokenProvider: tokenProviderOf(config),
    tokenProviderVersion: providerVersion,
    playerScripts: scripts.map((r) => ({ ...r, url: playerScriptUrl(r.playerId, r.variant) })),
    budgetPerHour: budget,
    identities: states.map((s) => ({ ...s, state: stateOf(s, budget, now) })),
    captionBudgetPerHour: captionBudget,
    captionIdentities: captionStates.map((s) => ({ ...s, state: stateOf(s, captionBudget, now) })),
    clientVersions: Object.entries(clientIdentities(config.YOUTUBE_CLIENT_VERSIONS)).map(([client, id]) => ({
      client,
      name: id.name,
      version: id.version,
      os: id.osName ? `${id.osName} ${id.osVersion ?? ''}`.trim() : '-',
      source: id.source,
      retired: retired(client),
    })),
    clients: byClient(counts),
    byIdentity: byIdentity(counts, states),
    residential: {
      budget: { perHour: config.YOUTUBE_RESIDENTIAL_BYTES_PER_HOUR, perDay: config.YOUTUBE_RESIDENTIAL_BYTES_PER_DAY },
      spent: { hour: spend.hour, day: spend.day },
      usage,
    },
  };
}

function stateOf(s: IdentityState, budget: number, now: Date): string {
  if (s.coolingUntil && s.coolingUntil > now)
    return `cooling ${Math.ceil((s.coolingUntil.getTime() - now.getTime()) / 1000)} s`;
  if (s.used >= budget) return 'budget spent';
  return 'ready';
}

function byClient(counts: OutcomeCount[]): ClientRow[] {
  const rows = new Map<string, ClientRow>();
  for (const c of counts) {
    const key = `${c.client}\u0000${c.purpose}`;
    const row = rows.get(key) ?? { client: c.client, purpose: c.purpose, tried: 0, served: 0, refused: {} };
    row.tried += c.count;
    if (c.kind === 'served') row.served += c.count;
    else row.refused[c.kind] = (row.refused[c.kind] ?? 0) + c.count;
    rows.set(key, row);
  }
  return [...rows.values()];
}

function byIdentity(counts: OutcomeCount[], states: IdentityState[]) {
  const rows = new Map<
    string,
    { identity: string; tried: number; served: number; refused: number; lastReason: string | null }
  >();
  for (const s of states) rows.set(s.id, { identity: s.id, tried: 0, served: 0, refused: 0, lastReason: s.lastReason });
  for (const c of counts) {
    const row = rows.get(c.identity) ?? { identity: c.identity, tried: 0, served: 0, refused: 0, lastReason: null };
    row.tried += c.count;
    if (c.kind === 'served') row.served += c.count;
    else row.refused += c.count;
    rows.set(c.identity, row);
  }
  return [...rows.values()];
}

type IdentityRow = YoutubeStatus['identities'][number];
/** The columns of an identity's budget, for player requests and caption downloads alike. */
const IDENTITY_COLUMNS: [string, (s: IdentityRow) => unknown][] = [
  ['IDENTITY', (s) => s.id],
  ['STATE', (s) => s.state],
  ['USED THIS HOUR', (s) => s.used],
  ['STRIKES', (s) => s.strikes],
  ['LAST REFUSAL', (s) => s.lastReason],
];

export function printYoutubeStatus(status: YoutubeStatus, hours: number, io: Io) {
  if (io.json) return io.out(JSON.stringify(status, null, 2));
  const kinds = OUTCOME_KINDS.filter((k) => k !== 'served' && status.clients.some((c) => c.refused[k]));
  io.out(
    [
      'Client chains (YOUTUBE_CAPTION_CLIENTS, YOUTUBE_METADATA_CLIENTS, YOUTUBE_STREAM_CLIENTS):',
      ...(['captions', 'metadata', 'streams'] as const).map((p) => `  ${p.padEnd(9)} ${status.chains[p].join(' > ')}`),
      `PO tokens: ${status.tokenProvider}${status.tokenProviderVersion ? `, version ${status.tokenProviderVersion}` : ''}`,
      ...playerScriptLines(status),
      '',
      `Egress identities (budget ${status.budgetPerHour} requests per hour each):`,
      formatTable(status.identities, IDENTITY_COLUMNS, '  none'),
      '',
      ...captionsAndVersions(status, hours),
      `Attempts in the last ${hours} h, by client (served, and refused by kind):`,
      formatTable(
        status.clients,
        [
          ['CLIENT', (c) => c.client],
          ['PURPOSE', (c) => c.purpose],
          ['TRIED', (c) => c.tried],
          ['SERVED', (c) => c.served],
          ...kinds.map((k): [string, (c: ClientRow) => unknown] => [k.toUpperCase(), (c) => c.refused[k] ?? 0]),
        ],
        '  no attempts recorded',
      ),
      '',
      `By identity:`,
      formatTable(
        status.byIdentity,
        [
          ['IDENTITY', (r) => r.identity],
          ['TRIED', (r) => r.tried],
          ['SERVED', (r) => r.served],
          ['REFUSED', (r) => r.refused],
        ],
        '  none',
      ),
      '',
      ...residentialLines(status),
    ].join('\n'),
  );
}

/** The player scripts in use per build: web first, tv when web fails (src/infra/youtube/player-scripts.ts). */
function playerScriptLines({ playerScripts }: YoutubeStatus): string[] {
  return [
    'Player scripts deciphering stream URLs (web, then tv when web fails):',
    formatTable(
      playerScripts,
      [
        ['VARIANT', (p) => p.variant],
        ['PLAYER', (p) => p.playerId],
        ['LAST OK', (p) => p.lastOk],
        ['LAST FAILED', (p) => p.lastFailed],
        ['SCRIPT', (p) => p.url],
        ['LAST ERROR', (p) => p.lastError],
      ],
      '  none fetched yet (no stream URL needed deciphering)',
    ),
  ];
}

/** The residential byte budget (YOUTUBE_RESIDENTIAL_BYTES_PER_HOUR, _PER_DAY) and where its bytes went. */
function residentialLines({ residential: r }: YoutubeStatus): string[] {
  return [
    `Residential egress bytes (cluster): ${r.spent.hour} of ${r.budget.perHour} this hour, ${r.spent.day} of ${r.budget.perDay} today (UTC):`,
    formatTable(
      r.usage,
      [
        ['IDENTITY', (u) => u.identity],
        ['PURPOSE', (u) => u.purpose],
        ['BYTES THIS HOUR', (u) => u.hour],
        ['BYTES TODAY', (u) => u.day],
      ],
      '  none',
    ),
  ];
}

/** Each identity's caption budget, and the client versions sent with any YouTube retired. */
function captionsAndVersions(status: YoutubeStatus, hours: number): string[] {
  return [
    `Caption downloads (timedtext), a budget of ${status.captionBudgetPerHour} per hour and a 429 backoff of their own:`,
    formatTable(status.captionIdentities, IDENTITY_COLUMNS, '  none'),
    '',
    'Client versions sent (YOUTUBE_CLIENT_VERSIONS over the built-in table):',
    formatTable(
      status.clientVersions,
      [
        ['CLIENT', (c) => c.client],
        ['VERSION', (c) => c.version],
        ['OS', (c) => c.os],
        ['SOURCE', (c) => c.source],
        [
          'RETIRED?',
          (c) => (c.retired ? `yes: ${c.retired} x 400 FAILED_PRECONDITION in ${hours} h, set a newer version` : 'no'),
        ],
      ],
      '  none',
    ),
    '',
  ];
}
