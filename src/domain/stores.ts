// Every persistence port, as the composition root (src/build-deps.ts) hands them out. A domain function names the
// few it uses; a transaction hands all of them out bound to itself.
import type { AccountStore, SessionStore } from './accounts/account-store.ts';
import type { ArticleStore } from './articles/article-store.ts';
import type { CreditLedger } from './credits/credit-ledger.ts';
import type { FrameStore } from './frames/frame-store.ts';
import type { ApiKeyStore } from './keys/api-key-store.ts';
import type { TranscriptStore } from './transcripts/transcript-store.ts';
import type { JobStore } from './jobs/job-store.ts';
import type { TranslationStore } from './translations/translation-store.ts';
import type { VideoStore } from './video/video-store.ts';

export interface Stores {
  accounts: AccountStore;
  sessions: SessionStore;
  apiKeys: ApiKeyStore;
  ledger: CreditLedger;
  videos: VideoStore;
  transcripts: TranscriptStore;
  translations: TranslationStore;
  frameStore: FrameStore;
  articles: ArticleStore;
  jobs: JobStore;
}

/** Runs `work` in one transaction: what it writes through the stores it is given commits together or not at all. */
export type Transaction = <T>(work: (stores: Stores) => Promise<T>) => Promise<T>;
