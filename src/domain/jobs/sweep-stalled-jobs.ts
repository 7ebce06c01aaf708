// Jobs (translations, articles, speech-to-text) whose queue job ended without moving them: its worker was
// killed on every attempt, or the outcome was lost with the database. GET /jobs/{id} settles such a job when it is
// read (reconcileJob); this sweep settles it when nobody reads it, so it reaches a final state all the same (the
// workers' periodic armEndedJobWebhooks then sends its callback). A job whose queue job is still queued or running, or
// whose queue cannot be asked now, is left alone.
import { type LlmJobPorts, reconcileJob } from './llm-jobs.ts';

/**
 * Jobs untouched this long are looked at (a job is stored before its queue job is sent); a live queue job keeps its
 * job out of the sweep whatever its age.
 */
const STALLED_JOB_SECONDS = 30;

/** One pass; returns how many jobs it settled. */
export async function sweepStalledJobs(deps: LlmJobPorts): Promise<number> {
  let settled = 0;
  for (const job of await deps.jobs.stalled(STALLED_JOB_SECONDS, 100)) if (await reconcileJob(deps, job)) settled++;
  return settled;
}
