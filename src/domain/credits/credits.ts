import { z } from 'zod';
import { ServiceError } from '../errors.ts';
import type { Stores } from '../stores.ts';
import type { ChargeRequest } from './credit-ledger.ts';

export const Credits = z.object({
  balance: z
    .number()
    .int()
    .describe('What is left of today’s free allowance plus the purchased balance, held credits included'),
  held: z
    .number()
    .int()
    .describe('Credits reserved for work under way: charged when it succeeds, given back when it fails'),
  available: z.number().int().describe('Credits spendable now: balance minus held'),
  dailyAllowance: z.number().int().describe('Free credits granted every day (UTC)'),
  freeRemaining: z.number().int().describe('What is left of today’s free allowance; spent before purchased credits'),
  purchasedBalance: z.number().int().describe('Purchased or granted credits; they do not expire'),
  resetsAt: z.string().describe('ISO 8601 time when the free allowance next resets (00:00 UTC)'),
});
export type Credits = z.infer<typeof Credits>;

export const utcDay = (now: Date) => now.toISOString().slice(0, 10);
const nextUtcMidnight = (now: Date) =>
  new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1)).toISOString();

export async function getCredits(
  { ledger }: Pick<Stores, 'ledger'>,
  accountId: string,
  dailyAllowance: number,
  now = new Date(),
): Promise<Credits> {
  const row = await ledger.balance(accountId, dailyAllowance, now);
  if (!row) throw new ServiceError('INVALID_API_KEY', 'The account behind this key no longer exists');
  return {
    balance: row.freeNow + row.purchased,
    held: row.held,
    available: Math.max(0, row.freeNow + row.purchased - row.held),
    dailyAllowance,
    freeRemaining: row.freeNow,
    purchasedBalance: row.purchased,
    resetsAt: nextUtcMidnight(now),
  };
}

export type { ChargeRequest };

/**
 * Takes `amount` credits in one statement: free allowance first, then purchased credits (see CreditLedger.charge).
 * Throws INSUFFICIENT_CREDITS when it cannot be afforded. The ledger row's id.
 */
export async function chargeCredits(
  { ledger }: Pick<Stores, 'ledger'>,
  req: ChargeRequest,
  dailyAllowance: number,
  now = new Date(),
): Promise<number> {
  if (req.amount <= 0) return 0;
  const id = await ledger.charge(req, dailyAllowance, now);
  if (id === null) throw await insufficientCredits({ ledger }, req.accountId, req.amount, dailyAllowance, now);
  return id;
}

/** The 402 for an operation costing `amount`, naming what the account can spend now. */
export async function insufficientCredits(
  ports: Pick<Stores, 'ledger'>,
  accountId: string,
  amount: number,
  dailyAllowance: number,
  now = new Date(),
): Promise<ServiceError> {
  const credits = await getCredits(ports, accountId, dailyAllowance, now);
  const held = credits.held > 0 ? `, with ${credits.held} more held for work under way` : '';
  return new ServiceError(
    'INSUFFICIENT_CREDITS',
    `This operation costs ${amount} credit${amount === 1 ? '' : 's'}; the balance is ${credits.available}${held}. ` +
      `The free allowance resets at ${credits.resetsAt}.`,
  );
}

/** Reverses a charge exactly once; free credits return only while their day lasts. */
export async function refundCharge(
  { ledger }: Pick<Stores, 'ledger'>,
  chargeId: number,
  now = new Date(),
): Promise<void> {
  await ledger.refund(chargeId, now);
}

export async function grantCredits(
  { ledger }: Pick<Stores, 'ledger'>,
  accountId: string,
  amount: number,
  reason = 'grant',
): Promise<void> {
  if (!Number.isInteger(amount) || amount <= 0)
    throw new ServiceError('INVALID_REQUEST', 'amount must be a positive integer');
  if (!(await ledger.grant(accountId, amount, reason)))
    throw new ServiceError('INVALID_REQUEST', `No account ${accountId}`);
}
