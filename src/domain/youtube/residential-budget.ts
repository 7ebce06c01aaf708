// Residential proxies are paid by the byte: every byte sent and received through one is counted per identity and
// purpose, and the cluster spends at most a budget per clock hour and per UTC day (PostgreSQL keeps the count, so
// every instance sees the same one). A request is let through only after it has reserved an estimate under the
// store's lock, so instances racing for the last bytes cannot all win; the estimate is replaced by the bytes actually
// counted when the answer ends. Past a budget the caller is told SERVICE_BUSY with the time until the
// window ends, and nothing is sent.
import { ServiceError } from '../errors.ts';

/** The least a request through a residential identity must be able to reserve (a gzip'd player answer is ~44 KB). */
const RESERVE_BYTES = 64 * 1024;

/**
 * The most one request may carry: it reserves this much (or what the budget has left, if less) and is cut off past it,
 * so no answer, however large, and no number of concurrent ones can carry the cluster past its budget.
 */
const REQUEST_CAP_BYTES = 256 * 1024;

export interface ResidentialLimits {
  perHour: number;
  perDay: number;
}

export interface ResidentialSpend {
  hour: number;
  day: number;
  /** Seconds until the hour and the day end. */
  hourEndsIn: number;
  dayEndsIn: number;
}

export interface ResidentialUsage {
  identity: string;
  purpose: string;
  hour: number;
  day: number;
}

/** PostgreSQL in production (src/infra/postgres/youtube-residential.ts). */
export interface ResidentialStore {
  /**
   * Adds `most` bytes for the identity and purpose, or what the hour and the day have left when that is less but at
   * least `least` (checked and added under one lock across instances); the totals before, and what was added (0:
   * nothing, the budget is spent).
   */
  reserve(
    identity: string,
    purpose: string,
    wanted: { least: number; most: number },
    limits: ResidentialLimits,
  ): Promise<{ reserved: number; spend: ResidentialSpend }>;
  /** Adds (or, with a negative count, takes back) bytes without a limit: what was counted beyond the reservation. */
  add(identity: string, purpose: string, bytes: number): Promise<void>;
  usage(): Promise<ResidentialUsage[]>;
  spend(): Promise<ResidentialSpend>;
}

export interface ResidentialBudget {
  readonly limits: ResidentialLimits;
  /**
   * Reserves a request's bytes (REQUEST_CAP_BYTES, or what is left if less), or throws SERVICE_BUSY; nothing is sent
   * before it. The request must stop once it has carried what was reserved.
   */
  reserve(identity: string, purpose: string): Promise<number>;
  /** After the answer: the bytes counted on the wire replace what was reserved. */
  settle(identity: string, purpose: string, reserved: number, used: number): Promise<void>;
  /** Bytes counted outside a reservation (a caption or stream bound to the identity): added as they are. */
  add(identity: string, purpose: string, bytes: number): Promise<void>;
}

export function createResidentialBudget(store: ResidentialStore, limits: ResidentialLimits): ResidentialBudget {
  return {
    limits,
    async reserve(identity, purpose) {
      const wanted = { least: RESERVE_BYTES, most: REQUEST_CAP_BYTES };
      const { reserved, spend } = await store.reserve(identity, purpose, wanted, limits);
      if (reserved <= 0) throw spent(spend, limits);
      return reserved;
    },
    async settle(identity, purpose, reserved, used) {
      if (used !== reserved) await store.add(identity, purpose, used - reserved);
    },
    add: (identity, purpose, bytes) => (bytes > 0 ? store.add(identity, purpose, bytes) : Promise.resolve()),
  };
}

function spent(spend: ResidentialSpend, limits: ResidentialLimits): ServiceError {
  const dayOver = spend.day + RESERVE_BYTES > limits.perDay;
  const wait = Math.max(1, dayOver ? spend.dayEndsIn : spend.hourEndsIn);
  const what = dayOver ? `today's ${limits.perDay}` : `this hour's ${limits.perHour}`;
  return new ServiceError(
    'SERVICE_BUSY',
    `YouTube asks this server to prove it is not a bot, and the residential egress budget is spent (${what} bytes); retry in ${wait} s`,
    wait,
  );
}
