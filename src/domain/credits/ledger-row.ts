// One row of the credit ledger as callers see it: the website's usage page and the credit history share it.
import { z } from 'zod';
import type { LedgerEntry } from './credit-ledger.ts';

export const LedgerRow = z.object({
  id: z.number().int(),
  at: z.string().describe('ISO 8601 date-time'),
  kind: z.enum(['charge', 'refund', 'grant']),
  operation: z.string(),
  videoId: z.string().nullable(),
  credits: z.number().int().describe('Change to the balance: negative for a charge'),
});
export type LedgerRow = z.infer<typeof LedgerRow>;

export const toLedgerRow = (e: LedgerEntry): LedgerRow => ({
  id: e.id,
  at: e.at.toISOString(),
  kind: e.kind,
  operation: e.operation,
  videoId: e.videoId,
  credits: e.delta,
});
