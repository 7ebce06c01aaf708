import { isDatabaseDown } from '../../db/database-errors.ts';
import type { Deps } from '../deps.ts';
import { isServiceError, type ErrorCode } from '../domain/errors.ts';
import { armEndedJobWebhooks } from '../domain/webhooks/job-webhooks.ts';
import { jobWebhookPorts } from '../domain/batches/batch-sources.ts';
import { releaseHolds } from '../domain/credits/holds.ts';

const BRIEFLY_AWAY = {
  code: 'SERVICE_BUSY' as const,
  message: 'The service was briefly unavailable; retry in a few seconds (nothing was charged)',
};

/**
 * A handler for work that moves jobs along (the `llm` and `speech` queues). A ServiceError is final: it is
 * recorded on every job waiting on the queue job's key, nothing is charged, and the queue job completes (its waiters
 * read their job). Anything else (a crash, a database blip) is retried by pg-boss while retries remain; the jobs stay
 * running meanwhile, and fail with `fallback` after the last one (SERVICE_BUSY when the database was away). Either
 * way the jobs' callbackUrls are armed when they end.
 */
export function callerJobHandler<J extends { key: string }>(
  deps: Deps,
  parse: (data: unknown) => J,
  run: (job: J) => Promise<unknown>,
  fallback: { code: ErrorCode; message: string },
) {
  return async (data: unknown, attempt: { retryCount: number; retryLimit: number }) => {
    const job = parse(data);
    const callBack = () =>
      armEndedJobWebhooks(jobWebhookPorts(deps), job.key).catch((err: unknown) =>
        deps.log.warn({ err }, 'job webhooks not queued'),
      );
    try {
      const out = await run(job);
      await callBack();
      return out;
    } catch (err) {
      if (!isServiceError(err) && attempt.retryCount < attempt.retryLimit) throw err;
      // The database away on the last attempt says nothing about the work: retry, as the job's waiters are told.
      const error = isServiceError(err)
        ? { code: err.code, message: err.message }
        : isDatabaseDown(err)
          ? BRIEFLY_AWAY
          : fallback;
      // Failed work is not paid for: every waiting job's held credits go back.
      const failed = await deps.jobs.failAll(job.key, error);
      await releaseHolds(deps, { jobIds: failed });
      await callBack();
      if (!isServiceError(err)) throw err;
      return { failed: error };
    }
  };
}
