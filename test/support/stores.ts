// The domain's account, key, credit and storage operations over a plain connection, for tests and benchmarks that
// set up state directly (the service itself gets its stores from src/build-deps.ts).
import type { Sql } from '../../db/client.ts';
import type { ArticleDraft } from '../../src/domain/articles/schemas.ts';
import * as credits from '../../src/domain/credits/credits.ts';
import * as keys from '../../src/domain/keys/manage-keys.ts';
import { hashApiKey } from '../../src/domain/keys/api-key.ts';
import { windowOf } from '../../src/domain/rate-limit/rate-limit.ts';
import type { SourceVideo } from '../../src/domain/ports.ts';
import type { Stores } from '../../src/domain/stores.ts';
import type { NewTranscript, Origin } from '../../src/domain/transcripts/transcript-store.ts';
import type { NewJob } from '../../src/domain/jobs/job-store.ts';
import { createStores } from '../../src/infra/postgres/stores.ts';

const cache = new WeakMap<Sql, Stores>();
export function storesOf(sql: Sql): Stores {
  let s = cache.get(sql);
  if (!s) cache.set(sql, (s = createStores(sql)));
  return s;
}

export const ensureAccount = (sql: Sql, email: string) => keys.ensureAccount(storesOf(sql), email);
export const createApiKey = (sql: Sql, input: Parameters<typeof keys.createApiKey>[1]) =>
  keys.createApiKey(storesOf(sql), input);
export const revokeApiKey = (sql: Sql, accountId: string, keyId: string) =>
  keys.revokeApiKey(storesOf(sql), accountId, keyId);
/** The hot path's one statement: the key's caller and one request counted against its window. */
export const authenticateKeyAndCount = (sql: Sql, key: string, now = Date.now()) =>
  storesOf(sql).apiKeys.findCallerAndCount(hashApiKey(key), windowOf(now).start, 1);

export const getCredits = (sql: Sql, accountId: string, dailyAllowance: number, now?: Date) =>
  credits.getCredits(storesOf(sql), accountId, dailyAllowance, now);
export const grantCredits = (sql: Sql, accountId: string, amount: number, reason?: string) =>
  credits.grantCredits(storesOf(sql), accountId, amount, reason);
export const chargeCredits = (sql: Sql, req: credits.ChargeRequest, dailyAllowance: number, now?: Date) =>
  credits.chargeCredits(storesOf(sql), req, dailyAllowance, now);
export const refundCharge = (sql: Sql, chargeId: number, now?: Date) =>
  credits.refundCharge(storesOf(sql), chargeId, now);
export { utcDay } from '../../src/domain/credits/credits.ts';

export const storeArticle = (sql: Sql, draft: ArticleDraft, opts?: { now?: Date }) =>
  storesOf(sql).articles.store(draft, opts);
export const storeTranscript = (sql: Sql, videoId: string, t: NewTranscript) =>
  storesOf(sql).transcripts.store(videoId, t);
export const readTranscript = (sql: Sql, videoId: string, lang: string, origin: Origin) =>
  storesOf(sql).transcripts.read(videoId, lang, origin);
export const storeVideo = (sql: Sql, videoId: string, video: SourceVideo) => storesOf(sql).videos.store(videoId, video);
export const readStoredVideo = (sql: Sql, videoId: string) => storesOf(sql).videos.read(videoId);
export const createJob = (sql: Sql, t: NewJob) => storesOf(sql).jobs.create(t);
