// Persistence port of balances and the credit ledger; implemented in src/infra/postgres/credit-ledger.ts.
// Every method that moves credits is one atomic statement (or one transaction) there.

export interface ChargeRequest {
  accountId: string;
  amount: number;
  operation: string;
  videoId?: string | null;
  requestId: string;
}

export interface LedgerEntry {
  id: number;
  at: Date;
  kind: 'charge' | 'refund' | 'grant';
  operation: string;
  videoId: string | null;
  delta: number;
}

/** Where a page of the ledger resumes: the last row's created_at (microseconds, UTC) and id. */
export interface LedgerPosition {
  at: string;
  id: number;
}

interface HistoryQuery {
  limit: number;
  after?: LedgerPosition;
  requestId?: string;
  videoId?: string;
}

export interface HistoryEntry extends LedgerEntry {
  requestId: string | null;
  position: LedgerPosition;
}

/** What a hold reserves credits for: the charge it becomes, and the job whose end it waits for. */
export interface HoldRequest extends ChargeRequest {
  /** The queue and dedup key of the work (the hold sweep asks whether it still lives). */
  job?: { queue: PaidQueue; key: string };
  /** The caller's job (tasks.id), where the work has one. */
  jobId?: string;
}

/** The queues whose work spends the operator's money. */
export type PaidQueue = 'extract' | 'frames' | 'llm' | 'speech';

/** A hold still reserving credits. */
export interface OpenHold {
  id: number;
  accountId: string;
  amount: number;
  jobId: string | null;
  job: { queue: PaidQueue; key: string } | null;
  /** The status of its job (null: no job, or the job is gone). */
  jobStatus: string | null;
  /** Seconds since it was taken, by the database's clock. */
  ageSeconds: number;
}

/** Reservations: credits held before paid work starts, settled into a charge or released after. */
export interface CreditHolds {
  /** Reserves `amount` of what is spendable and not held, in one statement; null when it cannot be afforded. */
  hold(req: HoldRequest, dailyAllowance: number, now: Date): Promise<number | null>;
  /**
   * Closes a held hold with a charge of `amount` (which may differ from what it held: the rest is released, or the
   * excess must be spendable). The ledger row's id; null when the hold is not held any more or the excess is not there.
   */
  settleHold(holdId: number, amount: number, dailyAllowance: number, now: Date): Promise<number | null>;
  /** Releases the holds, once each; the credits released. */
  releaseHolds(which: { holdIds?: number[]; jobIds?: string[] }): Promise<number>;
  /** Held holds of these jobs, by job id. */
  jobHolds(jobIds: string[]): Promise<Map<string, { id: number; amount: number }>>;
  /** Whether the hold still holds. */
  isHeld(holdId: number): Promise<boolean>;
  /** Whether the account holds credits for the work under this queue job key. */
  holdsFor(accountId: string, jobKey: string): Promise<boolean>;
  /** Holds still held after `graceSeconds` (by the database's clock), oldest first. */
  openHolds(graceSeconds: number, limit: number): Promise<OpenHold[]>;
}

export interface CreditLedger extends CreditHolds {
  /**
   * Today's free allowance left (the whole allowance on a new UTC day), the purchased balance and what holds reserve
   * of them; null: no account.
   */
  balance(
    accountId: string,
    dailyAllowance: number,
    now: Date,
  ): Promise<{ freeNow: number; purchased: number; held: number } | null>;
  /**
   * Takes `amount` (free first) of what no hold reserves, writing a ledger row; null when it cannot be afforded.
   * The ledger row's id.
   */
  charge(req: ChargeRequest, dailyAllowance: number, now: Date): Promise<number | null>;
  /** Reverses a charge, once. */
  refund(chargeId: number, now: Date): Promise<void>;
  /** Adds purchased credits; false when there is no such account. */
  grant(accountId: string, amount: number, reason: string): Promise<boolean>;
  /** Credits a request has cost the account: its charges net of refunds. */
  chargedFor(accountId: string, requestId: string): Promise<number>;
  /** Whether the account's request has been charged for this operation on this video. */
  isCharged(charge: { accountId: string; requestId: string; videoId: string; operation: string }): Promise<boolean>;
  /** The account's newest `limit` rows, newest first. */
  recent(accountId: string, limit: number): Promise<LedgerEntry[]>;
  /** One keyset page of the account's rows, newest first, after `after` when given. */
  history(accountId: string, query: HistoryQuery): Promise<HistoryEntry[]>;
  /** Net credits spent per UTC day, the last `days` days, oldest first. */
  dailySpend(accountId: string, days: number): Promise<{ day: string; spent: number }[]>;
}
