// How Subtext reaches YouTube without being shut out: each egress identity (the machine's own address, or one
// proxy) spends a budget of player requests per hour, shared by every instance through PostgreSQL; an identity
// YouTube refuses (bot check, 429, sign-in wall) cools down with a growing backoff and the work moves to another;
// when none is usable the caller is told SERVICE_BUSY with the time until one will be. Every attempt is counted per
// client and identity, so an operator sees which client broke today (`youtube status`, /metrics).
import { ServiceError } from '../errors.ts';

/** What one attempt of one client came to. */
export const OUTCOME_KINDS = [
  'served', // an answer we could use
  'bot_check', // "Sign in to confirm you're not a bot", captcha pages
  'rate_limited', // HTTP 429
  'sign_in', // sign-in demanded for no stated reason
  'unplayable', // refused for this client (not a verdict on the video)
  'empty_captions', // a caption URL that answered 200 and nothing (needs a PO token)
  'stream_403', // a stream URL refused
  'no_stream', // an answer with no stream URL for frames or audio (storyboards only, SABR only)
  'no_token', // a web client skipped: no PO token could be minted
  'network', // no answer at all
  'client_retired', // HTTP 400 FAILED_PRECONDITION from /player: YouTube no longer serves this client version
  'video', // YouTube's final word on the video (not found, private, age-restricted...): the client worked
  'error', // an answer we could not read
] as const;
export type OutcomeKind = (typeof OUTCOME_KINDS)[number];

/** Refusals about the identity (its address), not the client or the video: they cool the identity down. */
const IDENTITY_REFUSALS: ReadonlySet<OutcomeKind> = new Set(['bot_check', 'rate_limited', 'sign_in']);

/** What an attempt was for: the three client chains, and listing pages (playlists, channels, search). */
export type Purpose = 'captions' | 'metadata' | 'streams' | 'listing';

export interface Outcome {
  client: string;
  purpose: Purpose;
  identity: string;
  kind: OutcomeKind;
}

export interface IdentityState {
  id: string;
  /** Requests taken in the current hour window (0 when the window has ended). */
  used: number;
  windowEndsAt: Date | null;
  coolingUntil: Date | null;
  strikes: number;
  lastReason: string | null;
}

export interface OutcomeCount extends Outcome {
  count: number;
}

/** PostgreSQL in production (src/infra/postgres/youtube-egress.ts); every statement is atomic across instances. */
export interface EgressStore {
  /**
   * Takes one request from the hourly budget of an identity among `ids` that is neither cooling nor spent (the
   * least used first), or null when none is.
   */
  take(ids: string[], budgetPerHour: number): Promise<string | null>;
  /** One more strike; cools the identity for min(base * 2^(strikes-1), max) seconds. */
  cool(id: string, reason: string, baseSeconds: number, maxSeconds: number): Promise<void>;
  /** A usable answer: the strike count starts again. */
  served(id: string): Promise<void>;
  states(ids: string[]): Promise<IdentityState[]>;
  record(outcome: Outcome): Promise<void>;
  /** Counts since `since`, per client, purpose, identity and kind. */
  counts(since: Date): Promise<OutcomeCount[]>;
}

export interface PacingSettings {
  identities: string[];
  budgetPerHour: number;
  /** First cool-down; 0 turns cooling off (outcomes are still counted). */
  cooldownBaseSeconds: number;
  cooldownMaxSeconds: number;
  /** What the budget is for, in the SERVICE_BUSY message ("route to YouTube", "caption budget"). */
  noun?: string;
}

export interface EgressPacer {
  readonly identities: string[];
  /**
   * An identity to send the next request from, among `among` (default: all; a URL bound to one identity names it);
   * throws SERVICE_BUSY (with Retry-After) when none is usable.
   */
  take(among?: string[]): Promise<string>;
  report(outcome: Outcome, reason?: string): Promise<void>;
  /** Whether a refusal of this kind should be retried from another identity (cooling is on and there is another). */
  movesOn(kind: OutcomeKind): boolean;
}

const TAKE_ATTEMPTS = 3;

export function createEgressPacer(
  store: EgressStore,
  settings: PacingSettings,
  opts: { now?: () => number; onOutcome?: (o: Outcome) => void } = {},
): EgressPacer {
  const now = opts.now ?? Date.now;
  const ids = settings.identities;
  const cooling = settings.cooldownBaseSeconds > 0;
  return {
    identities: ids,
    async take(among) {
      const pool = among ? ids.filter((id) => among.includes(id)) : ids;
      for (let i = 0; i < TAKE_ATTEMPTS; i++) {
        const id = await store.take(pool, settings.budgetPerHour);
        if (id) return id;
        // Another instance may have taken the last request of the identity we raced for while another is free.
        const states = await store.states(pool);
        if (!states.some((s) => usableAt(s, settings.budgetPerHour, now())))
          throw busy(states, settings.budgetPerHour, now(), settings.noun);
      }
      throw busy(await store.states(pool), settings.budgetPerHour, now(), settings.noun);
    },
    async report(outcome, reason) {
      opts.onOutcome?.(outcome);
      await store.record(outcome);
      if (outcome.kind === 'served') await store.served(outcome.identity);
      else if (cooling && IDENTITY_REFUSALS.has(outcome.kind)) {
        await store.cool(
          outcome.identity,
          reason ?? outcome.kind,
          settings.cooldownBaseSeconds,
          settings.cooldownMaxSeconds,
        );
      }
    },
    movesOn: (kind) => cooling && ids.length > 1 && IDENTITY_REFUSALS.has(kind),
  };
}

function usableAt(s: IdentityState, budget: number, at: number): boolean {
  const cooled = !s.coolingUntil || s.coolingUntil.getTime() <= at;
  const budgetLeft = s.used < budget || !s.windowEndsAt || s.windowEndsAt.getTime() <= at;
  return cooled && budgetLeft;
}

/** When the first identity is usable again: the later of its cool-down's end and its budget window's end. */
function secondsUntilUsable(states: IdentityState[], budget: number, at: number): number {
  const when = states.map((s) => {
    const cool = s.coolingUntil?.getTime() ?? 0;
    const window = s.used >= budget && s.windowEndsAt ? s.windowEndsAt.getTime() : 0;
    return Math.max(cool, window);
  });
  const first = when.length ? Math.min(...when) : at;
  return Math.max(1, Math.ceil((first - at) / 1000));
}

function busy(states: IdentityState[], budget: number, at: number, noun = 'route to YouTube'): ServiceError {
  const wait = secondsUntilUsable(states, budget, at);
  const cooling = states.filter((s) => s.coolingUntil && s.coolingUntil.getTime() > at).length;
  const spent = states.length - cooling;
  const parts = [
    cooling ? `${cooling} cooling down after YouTube refused them` : '',
    spent ? `${spent} out of this hour's budget` : '',
  ].filter(Boolean);
  return new ServiceError(
    'SERVICE_BUSY',
    `Every ${noun} is resting (${states.length} identit${states.length === 1 ? 'y' : 'ies'}: ${parts.join(', ')}); retry in ${wait} s`,
    wait,
  );
}

/** Caption downloads (timedtext) have their own budget and cool-down per identity, kept under this prefix. */
const CAPTIONS_PREFIX = 'timedtext:';

/**
 * The store seen through each identity's caption budget: timedtext meets 429s long before /player does
 * (yt-dlp/yt-dlp#13831: 60 requests in 5 minutes), and a captions backoff must not stop player requests. Outcomes
 * are recorded under the identity's own name; budgets and cool-downs live in rows of their own.
 */
export function captionBudgetStore(store: EgressStore): EgressStore {
  const key = (id: string) => `${CAPTIONS_PREFIX}${id}`;
  const unkey = (id: string) => (id.startsWith(CAPTIONS_PREFIX) ? id.slice(CAPTIONS_PREFIX.length) : id);
  return {
    take: async (ids, budget) => {
      const id = await store.take(ids.map(key), budget);
      return id && unkey(id);
    },
    cool: (id, reason, base, max) => store.cool(key(id), reason, base, max),
    served: (id) => store.served(key(id)),
    states: async (ids) => (await store.states(ids.map(key))).map((s) => ({ ...s, id: unkey(s.id) })),
    record: (o) => store.record(o),
    counts: (since) => store.counts(since),
  };
}
