import type { Stores, Transaction } from '../stores.ts';
import type { ChargeRequest } from './credit-ledger.ts';
import { chargeCredits, getCredits, insufficientCredits } from './credits.ts';
import { settleHold } from './holds.ts';

/**
 * Fails with 402 when what the account can spend now (held credits aside) cannot cover `amount`. A check, not a
 * reservation: work that spends the operator's money reserves with reserveCredits (holds.ts) instead.
 */
export async function assertAffordable(
  ports: Pick<Stores, 'ledger'>,
  accountId: string,
  amount: number,
  dailyAllowance: number,
): Promise<void> {
  if (amount <= 0) return;
  const credits = await getCredits(ports, accountId, dailyAllowance);
  if (credits.available < amount) throw await insufficientCredits(ports, accountId, amount, dailyAllowance);
}

/**
 * Charge on success: `store` records the result of work that has already succeeded, and the
 * charge is taken in the same transaction. Either both happen or neither does, so a result is
 * never kept uncharged and a failure is never charged, even if the process dies mid-way.
 * When the balance was spent by a concurrent request meanwhile, nothing is stored and 402 is thrown.
 */
export async function commitCharged<T>(
  transaction: Transaction,
  req: ChargeRequest,
  dailyAllowance: number,
  store: (tx: Stores) => Promise<T>,
  /** False when `store` found the result already there (a duplicate or retried job): then nobody pays again. */
  isNew: (value: T) => boolean = () => true,
): Promise<T> {
  return transaction(async (tx) => {
    const value = await store(tx);
    if (isNew(value)) await chargeCredits(tx, req, dailyAllowance);
    return value;
  });
}

/**
 * commitCharged for work paid by a hold (holds.ts): the result stored and the hold settled into a charge of `amount`
 * in one transaction. When `isNew` says the result was already there, nothing is settled (the hold is the caller's
 * to release).
 */
export async function commitSettled<T>(
  transaction: Transaction,
  hold: { id: number; accountId: string },
  amount: number,
  dailyAllowance: number,
  store: (tx: Stores) => Promise<T>,
  isNew: (value: T) => boolean = () => true,
): Promise<T> {
  return transaction(async (tx) => {
    const value = await store(tx);
    if (isNew(value)) await settleHold(tx, hold, amount, dailyAllowance);
    return value;
  });
}

/**
 * The commit of a job that names its payer: settles the payer's hold when the job carries one, else (a job queued
 * before holds existed) charges as before. Either way nothing is stored unless it is paid for.
 */
export function commitPaid<T>(
  transaction: Transaction,
  payer: ChargeRequest & { holdId?: number },
  dailyAllowance: number,
  store: (tx: Stores) => Promise<T>,
  isNew: (value: T) => boolean,
): Promise<T> {
  if (payer.holdId === undefined) return commitCharged(transaction, payer, dailyAllowance, store, isNew);
  const hold = { id: payer.holdId, accountId: payer.accountId };
  return commitSettled(transaction, hold, payer.amount, dailyAllowance, store, isNew);
}
