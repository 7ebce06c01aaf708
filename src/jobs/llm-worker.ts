import type { Deps } from '../deps.ts';
import { runSummaryJob } from '../domain/articles/article-job.ts';
import { isServiceError } from '../domain/errors.ts';
import { runTranslationJob } from '../domain/translations/translation-job.ts';
import { LlmPayload } from './payloads.ts';
import { armEndedTaskWebhooks } from '../domain/webhooks/task-webhooks.ts';
import { taskWebhookDeps } from './batch-deps.ts';

/**
 * The `llm` queue's handler. A ServiceError is final: the LLM adapter has already retried transient upstream
 * failures with backoff, and a misaligned chunk has been re-asked, so re-running the whole job would only repeat
 * paid calls. The failure is recorded on every waiting task and the job completes (its waiters read their task).
 * Anything else (a crash, a database blip) is retried by pg-boss; the tasks stay running meanwhile.
 */
export function llmHandler(deps: Deps) {
  return async (data: unknown, attempt: { retryCount: number; retryLimit: number }) => {
    const job = LlmPayload.parse(data);
    // The tasks this job moved along may have callbackUrls waiting for it to end.
    const callBack = () => armEndedTaskWebhooks(taskWebhookDeps(deps), job.key).catch((err: unknown) => deps.log.warn({ err }, 'task webhooks not queued'));
    try {
      const out = job.kind === 'translation' ? await runTranslationJob(deps, job) : await runSummaryJob(deps, job);
      await callBack();
      return out;
    } catch (err) {
      if (!isServiceError(err) && attempt.retryCount < attempt.retryLimit) throw err;
      const error = isServiceError(err)
        ? { code: err.code, message: err.message }
        : { code: 'LLM_FAILED' as const, message: 'The work failed; nothing was charged' };
      await deps.tasks.failAll(job.key, error);
      await callBack();
      if (!isServiceError(err)) throw err;
      return { failed: error };
    }
  };
}
