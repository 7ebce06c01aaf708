// The caller's credit history, newest first, in keyset pages: what each request and video cost, so an API user can
// reconcile what they were charged for.
import { z } from 'zod';
import type { Stores } from '../stores.ts';
import { decodeHistoryCursor, encodeHistoryCursor } from './history-cursor.ts';
import { LedgerRow, toLedgerRow } from './ledger-row.ts';

/** Entries per page: at most, and when the caller does not say. */
export const MAX_HISTORY_LIMIT = 100;
export const DEFAULT_HISTORY_LIMIT = 20;

export const CreditHistoryInput = z.object({
  limit: z
    .number()
    .int()
    .min(1)
    .max(MAX_HISTORY_LIMIT)
    .default(DEFAULT_HISTORY_LIMIT)
    .describe(`Entries per page, 1-${MAX_HISTORY_LIMIT}`),
  cursor: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .describe('nextCursor of the previous page, with the same filters; omit for the first page')
    .optional(),
  requestId: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .describe('Only the entries of this request (its X-Request-Id): what that one request cost')
    .optional(),
  videoId: z.string().trim().min(1).max(200).describe('Only the entries for this video').optional(),
});
export type CreditHistoryInput = z.infer<typeof CreditHistoryInput>;

const CreditHistoryEntry = LedgerRow.extend({
  requestId: z
    .string()
    .nullable()
    .describe(
      'The request charged (its X-Request-Id; each call of a tRPC or JSON-RPC batch has its own); null for a grant',
    ),
});

export const CreditHistory = z.object({
  entries: z.array(CreditHistoryEntry).describe('Newest first'),
  nextCursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last page'),
});
export type CreditHistory = z.infer<typeof CreditHistory>;

export async function creditHistory(
  { ledger }: Pick<Stores, 'ledger'>,
  accountId: string,
  input: CreditHistoryInput,
): Promise<CreditHistory> {
  const after = input.cursor ? decodeHistoryCursor(input.cursor) : undefined;
  // One row more than the page says whether there is a next page.
  const rows = await ledger.history(accountId, {
    limit: input.limit + 1,
    after,
    requestId: input.requestId,
    videoId: input.videoId,
  });
  const page = rows.slice(0, input.limit);
  const last = page.at(-1);
  return {
    entries: page.map((e) => ({ ...toLedgerRow(e), requestId: e.requestId })),
    nextCursor: rows.length > input.limit && last ? encodeHistoryCursor(last.position) : null,
  };
}
