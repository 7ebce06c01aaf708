import { ServiceError } from '../errors.ts';
import type { Stores, Transaction } from '../stores.ts';
import type { ChargeRequest } from './credit-ledger.ts';
import { chargeCredits, getCredits } from './credits.ts';

/** Fails with 402 before any work starts when the balance cannot cover `amount`. */
export async function assertAffordable(
  ports: Pick<Stores, 'ledger'>,
  accountId: string,
  amount: number,
  dailyAllowance: number,
): Promise<void> {
  if (amount <= 0) return;
  const credits = await getCredits(ports, accountId, dailyAllowance);
  if (credits.balance < amount) {
    throw new ServiceError(
      'INSUFFICIENT_CREDITS',
      `This operation costs ${amount} credit${amount === 1 ? '' : 's'}; the balance is ${credits.balance}. ` +
        `The free allowance resets at ${credits.resetsAt}.`,
    );
  }
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
