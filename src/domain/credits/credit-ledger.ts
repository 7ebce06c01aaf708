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

export interface CreditLedger {
  /** Today's free allowance left (the whole allowance on a new UTC day) and the purchased balance; null: no account. */
  balance(accountId: string, dailyAllowance: number, now: Date): Promise<{ freeNow: number; purchased: number } | null>;
  /** Takes `amount` (free first), writing a ledger row; null when it cannot be afforded. The ledger row's id. */
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
