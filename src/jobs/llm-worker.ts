import type { Deps } from '../deps.ts';
import { runArticleJob } from '../domain/articles/article-job.ts';
import { runTranslationJob } from '../domain/translations/translation-job.ts';
import { LlmPayload } from './payloads.ts';
import { callerJobHandler } from './caller-job-handler.ts';

/**
 * The `llm` queue's handler. A ServiceError is final: the LLM adapter has already retried transient upstream
 * failures with backoff, and a misaligned chunk has been re-asked, so re-running the whole job would only repeat
 * paid calls (see callerJobHandler).
 */
export const llmHandler = (deps: Deps) =>
  callerJobHandler(
    deps,
    (data) => LlmPayload.parse(data),
    (job) => (job.kind === 'translation' ? runTranslationJob(deps, job) : runArticleJob(deps, job)),
    {
      code: 'LLM_FAILED',
      message: 'The work failed; nothing was charged',
    },
  );
