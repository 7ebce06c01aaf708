import { ServiceError } from '../errors.ts';
import { getBatch } from './get-batch.ts';
import { settleBatch, type RunItemPorts } from './run-batch-item.ts';
import type { Batch } from './schemas.ts';

/** Videos not started yet are cancelled (never charged); running ones finish. Cancelling twice is harmless. */
export async function cancelBatch(
  deps: Pick<RunItemPorts, 'batches' | 'lookupAdmission' | 'listingCharges' | 'webhooks' | 'enqueue'>,
  accountId: string,
  id: string,
): Promise<Batch> {
  const found = await deps.batches.get(id, accountId);
  if (!found) throw new ServiceError('JOB_NOT_FOUND', `No batch ${JSON.stringify(id)} for this account`);
  await deps.batches.cancelQueued(id, accountId);
  await settleBatch(deps, id);
  return getBatch(deps, accountId, id);
}
