// Two runs of one job made to overlap: each has read the tasks waiting on it (and so picked its payer) before
// either commits, as a pg-boss retry running beside the first run would.
import type { JobStore } from '../../src/domain/jobs/job-store.ts';

export /** The task store with `waiting` held until `n` runs have read it: every run picks its payer before any commits. */
function heldJobs(jobs: JobStore, n: number): JobStore {
  let arrived = 0;
  let release!: () => void;
  const all = new Promise<void>((r) => (release = r));
  return {
    ...jobs,
    async waiting(key) {
      const rows = await jobs.waiting(key);
      if (++arrived >= n) release();
      await all;
      return rows;
    },
  };
}
