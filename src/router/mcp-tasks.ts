// How long work shows in the MCP Tasks extension (src/bridges/mcp/tasks.ts): the answers that started work still
// going, and which tools read and cancel a task. A task id is its job's or batch's own id.
import type { McpTask, TaskWork } from './mcp-projection.ts';

type Json = Record<string, unknown>;

/** An answer with a job still queued or running (speech-to-text, a translation, a summary). */
function jobStarted(out: Json): TaskWork | null {
  const job = out.job as TaskWork | undefined;
  return (out.status === 'queued' || out.status === 'running') && typeof job?.id === 'string' ? job : null;
}

/** A batch still running. */
function batchStarted(out: Json): TaskWork | null {
  return out.kind === 'batch' && out.status === 'running' && typeof out.id === 'string'
    ? (out as unknown as TaskWork)
    : null;
}

const BATCH_ID_PREFIX = 'bat_';

/** A tool that may answer with a job to poll. */
export const JOB_STARTER: McpTask = { started: jobStarted };
/** get_job: reads every task that is not a batch; a failed job is the task's error. */
export const JOB_READER: McpTask = { reads: { failedIsError: true } };
/** A tool answering a batch (a running one is a task too). */
export const BATCH_ANSWER: McpTask = { started: batchStarted };
/** get_batch: reads batch tasks. */
export const BATCH_READER: McpTask = { started: batchStarted, reads: { idPrefix: BATCH_ID_PREFIX } };
/** cancel_batch: cancels batch tasks. */
export const BATCH_CANCELLER: McpTask = { started: batchStarted, cancels: { idPrefix: BATCH_ID_PREFIX } };
