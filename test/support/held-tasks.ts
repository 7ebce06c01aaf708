// Two runs of one job made to overlap: each has read the tasks waiting on it (and so picked its payer) before
// either commits, as a pg-boss retry running beside the first run would.
import type { TaskStore } from '../../src/domain/tasks/task-store.ts';

export /** The task store with `waiting` held until `n` runs have read it: every run picks its payer before any commits. */
function heldTasks(tasks: TaskStore, n: number): TaskStore {
  let arrived = 0;
  let release!: () => void;
  const all = new Promise<void>((r) => (release = r));
  return {
    ...tasks,
    async waiting(key) {
      const rows = await tasks.waiting(key);
      if (++arrived >= n) release();
      await all;
      return rows;
    },
  };
}
