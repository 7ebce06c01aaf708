// Every repository over one connection (the pool, or a transaction's), and transactions that hand them out.
import type { Sql } from '../../../db/client.ts';
import type { Stores, Transaction } from '../../domain/stores.ts';
import { createAccountStore } from './accounts.ts';
import { createApiKeyStore } from './api-keys.ts';
import { createArticleStore } from './articles.ts';
import { createCreditLedger } from './credit-ledger.ts';
import { createFrameStore } from './frames.ts';
import { createSessionStore } from './sessions.ts';
import { createJobStore } from './jobs.ts';
import { createTranscriptStore, createTranslationStore } from './transcripts.ts';
import { createVideoStore } from './videos.ts';

export function createStores(sql: Sql): Stores {
  return {
    accounts: createAccountStore(sql),
    sessions: createSessionStore(sql),
    apiKeys: createApiKeyStore(sql),
    ledger: createCreditLedger(sql),
    videos: createVideoStore(sql),
    transcripts: createTranscriptStore(sql),
    translations: createTranslationStore(sql),
    frameStore: createFrameStore(sql),
    articles: createArticleStore(sql),
    jobs: createJobStore(sql),
  };
}

/** One PostgreSQL transaction: whatever `work` writes through the stores it is given commits together or not at all. */
export function createTransaction(sql: Sql): Transaction {
  // sql.begin() types its result as UnwrapPromiseArray<T>, which is T for anything but an array of promises, and a
  // transaction's work never returns one: hence the cast.
  return async (work) => (await sql.begin((tx) => work(createStores(tx as unknown as Sql)))) as never;
}
