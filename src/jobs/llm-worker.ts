import type { Deps } from '../deps.ts';
import { runSummaryJob } from '../domain/articles/article-job.ts';
import { runTranslationJob } from '../domain/translations/translation-job.ts';
import { LlmPayload } from './payloads.ts';
import { taskJobHandler } from './task-job-handler.ts';

/**
 * The `llm` queue's handler. A ServiceError is final: the LLM adapter has already retried transient upstream
 * failures with backoff, and a misaligned chunk has been re-asked, so re-running the whole job would only repeat
 * paid calls (see taskJobHandler).
 */
export const llmHandler = (deps: Deps) =>
  taskJobHandler(
    deps,
    (data) => LlmPayload.parse(data),
    (job) => (job.kind === 'translation' ? runTranslationJob(deps, job) : runSummaryJob(deps, job)),
    {
      code: 'LLM_FAILED',
      message: 'The work failed; nothing was charged',
    },
  );
