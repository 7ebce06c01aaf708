import type { Deps } from '../../deps.ts';
import type { CreateBatchPorts } from '../../domain/batches/create-batch.ts';
import { getCredits } from '../../domain/credits/credits.ts';
import { batchPorts } from '../../domain/batches/batch-sources.ts';

export const createBatchPorts = (d: Deps): CreateBatchPorts => ({
  ...batchPorts(d),
  listing: { lister: d.lister, listingCache: d.listingCache, lookupAdmission: d.lookupAdmission },
  balance: async (accountId) => (await getCredits(d, accountId, d.config.DAILY_FREE_CREDITS)).available,
  takeFreeLookup: (accountId) => d.lookupAdmission.takeFree(accountId),
  llmConfigured: d.llm !== null,
  speechConfigured: d.speech !== null,
  transport: d.webhookTransport,
  allowHttpCallbacks: d.config.WEBHOOK_ALLOW_HTTP,
});
