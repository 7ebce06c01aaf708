import { api } from './api.ts';

type Job = Awaited<ReturnType<typeof api.jobs.get.query>>;

/** Polls a background job until it succeeds (its result) or fails (throws its error), reporting progress. */
export async function pollJob(
  id: string,
  onProgress: (progress: number, status: string) => void,
): Promise<NonNullable<Job['result']>> {
  for (;;) {
    const job = await api.jobs.get.query({ id });
    onProgress(job.progress, job.status);
    if (job.status === 'succeeded') return job.result ?? {};
    if (job.status === 'failed') throw new Error(job.error?.message ?? 'The work failed; nothing was charged.');
    await new Promise((r) => setTimeout(r, 2000));
  }
}
