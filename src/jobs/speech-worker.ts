import type { Deps } from '../deps.ts';
import { isServiceError } from '../domain/errors.ts';
import { runSpeechJob } from '../domain/speech/speech-job.ts';
import { armEndedTaskWebhooks } from '../domain/webhooks/task-webhooks.ts';
import { taskWebhookDeps } from './batch-deps.ts';
import { SpeechPayload } from './payloads.ts';

/**
 * The `speech` queue's handler. As for the LLM queue, a ServiceError is final (YouTube refusing the stream, the
 * engine failing after its own timeout, audio too long): it is recorded on every waiting task, nothing is charged,
 * and the job completes. Anything else (a crash, a database blip) is retried once by pg-boss.
 */
export function speechHandler(deps: Deps) {
  return async (data: unknown, attempt: { retryCount: number; retryLimit: number }) => {
    const job = SpeechPayload.parse(data);
    const callBack = () => armEndedTaskWebhooks(taskWebhookDeps(deps), job.key).catch((err: unknown) => deps.log.warn({ err }, 'task webhooks not queued'));
    try {
      const out = await runSpeechJob(deps, job);
      await callBack();
      return out;
    } catch (err) {
      if (!isServiceError(err) && attempt.retryCount < attempt.retryLimit) throw err;
      if (!isServiceError(err)) deps.log.error({ err, videoId: job.videoId }, 'speech-to-text job failed');
      const error = isServiceError(err)
        ? { code: err.code, message: err.message }
        : { code: 'EXTRACTION_FAILED' as const, message: 'Speech-to-text failed; nothing was charged' };
      await deps.tasks.failAll(job.key, error);
      await callBack();
      if (!isServiceError(err)) throw err;
      return { failed: error };
    }
  };
}
