// The Tasks extension (io.modelcontextprotocol/tasks, revision 2026-07-28): long work (speech-to-text, translations,
// summaries, batches) is answered as a task handle to a client that declares the extension on its request, and
// tasks/get polls the job or batch behind it. Clients that do not declare it get today's answer (status queued or
// running with a job to pass to get_job). The task id is the job's or batch's own id, so a task is exactly as durable,
// and as private to its account, as the job is: get_job and get_batch answer another account's id as not found.
import type { CallToolResult } from '@modelcontextprotocol/server';

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
const CLIENT_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
/** Jobs and batches are checked this often by a polite client; they move in seconds, not milliseconds. */
const POLL_INTERVAL_MS = 2_000;
const INVALID_PARAMS = -32602;
const MISSING_CAPABILITY = -32021;

type Json = Record<string, unknown>;
export type CallTool = (name: string, args: Json) => Promise<CallToolResult>;

/** Whether a request's per-request capabilities declare the extension (the only place the spec allows it). */
export function declaresTasks(params: unknown): boolean {
  const meta = (params as { _meta?: Json } | undefined)?._meta;
  const caps = meta?.[CLIENT_CAPABILITIES] as { extensions?: Json } | undefined;
  return !!caps?.extensions && typeof caps.extensions === 'object' && TASKS_EXTENSION in caps.extensions;
}

export const isTaskMethod = (method: unknown) =>
  method === 'tasks/get' || method === 'tasks/update' || method === 'tasks/cancel';

interface Tracked {
  id: string;
  status: string;
  createdAt?: string;
  updatedAt?: string;
}

function task(t: Tracked, status: string, statusMessage: string): Json {
  const now = new Date().toISOString();
  return {
    taskId: t.id,
    status,
    statusMessage,
    createdAt: t.createdAt ?? now,
    lastUpdatedAt: t.updatedAt ?? t.createdAt ?? now,
    // As long as the job or batch is kept: the server decides, the client need not.
    ttlMs: null,
    pollIntervalMs: POLL_INTERVAL_MS,
  };
}

/** The job or batch a tool result started and that is still going, or null (a finished or immediate answer). */
function startedWork(result: CallToolResult): Tracked | null {
  const out = result.structuredContent as Json | undefined;
  if (!out || result.isError) return null;
  const job = out.job as Tracked | undefined;
  if ((out.status === 'queued' || out.status === 'running') && typeof job?.id === 'string') return job;
  if (out.kind === 'batch' && out.status === 'running' && typeof out.id === 'string') return out as unknown as Tracked;
  return null;
}

/** A tools/call result as a CreateTaskResult (resultType "task") when it started long work; null otherwise. */
export function asCreatedTask(result: CallToolResult): Json | null {
  const work = startedWork(result);
  if (!work) return null;
  return { resultType: 'task', ...task(work, 'working', 'Started; poll tasks/get with this taskId') };
}

/** tasks/get: the job's or batch's state as a task, with the finished tool result inlined. */
async function getTask(taskId: string, callTool: CallTool): Promise<Json> {
  const isBatch = taskId.startsWith('bat_');
  const result = await callTool(isBatch ? 'get_batch' : 'get_job', { id: taskId });
  const out = result.structuredContent as (Tracked & Json) | undefined;
  if (result.isError || !out) throw new TaskNotFound(taskId);
  switch (out.status) {
    case 'queued':
    case 'running':
      return task(out, 'working', `${out.status}; progress ${Math.round(Number(out.progress ?? 0) * 100)}%`);
    case 'cancelled':
      return task(out, 'cancelled', 'Cancelled');
    default:
      // A job that failed is a tool result with isError, not a JSON-RPC error: the task completed (the spec's rule).
      return {
        ...task(out, 'completed', out.status === 'failed' ? 'Finished with an error' : 'Finished'),
        result: out.status === 'failed' && !isBatch ? failedJobResult(out) : result,
      };
  }
}

function failedJobResult(job: Json): CallToolResult {
  const error = (job.error ?? { code: 'INTERNAL_ERROR', message: 'The job failed' }) as Json;
  return {
    content: [{ type: 'text', text: `Error ${String(error.code)}: ${String(error.message)}` }],
    structuredContent: { error },
    isError: true,
  };
}

class TaskNotFound extends Error {
  constructor(taskId: string) {
    super(`Failed to retrieve task: no task ${JSON.stringify(taskId.slice(0, 80))} for this account`);
  }
}

/**
 * Answers tasks/get, tasks/update and tasks/cancel as JSON-RPC: a client that did not declare the extension gets
 * -32021; an unknown task (or another account's) -32602. Cancelling a batch cancels its remaining videos; a job runs
 * to its end (cancellation is cooperative, and a job may already be shared by other requests for the same work).
 */
export async function answerTaskRequest(
  message: { id?: unknown; method: string; params?: unknown },
  callTool: CallTool,
): Promise<Json> {
  const id = message.id ?? null;
  const fail = (code: number, text: string, data?: Json) => ({
    jsonrpc: '2.0',
    id,
    error: { code, message: text, ...(data ? { data } : {}) },
  });
  if (!declaresTasks(message.params)) {
    return fail(MISSING_CAPABILITY, 'Missing required client capability', {
      requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } },
    });
  }
  const taskId = (message.params as { taskId?: unknown } | undefined)?.taskId;
  if (typeof taskId !== 'string' || taskId.length === 0 || taskId.length > 64)
    return fail(INVALID_PARAMS, 'params.taskId must be a task id from a CreateTaskResult');
  try {
    if (message.method === 'tasks/get')
      return { jsonrpc: '2.0', id, result: { resultType: 'complete', ...(await getTask(taskId, callTool)) } };
    // The request was counted as one call: a batch is cancelled by cancel_batch alone (it answers another account's
    // batch as not found), the rest need the task to exist and be the caller's.
    if (message.method === 'tasks/cancel' && taskId.startsWith('bat_')) {
      if ((await callTool('cancel_batch', { id: taskId })).isError) throw new TaskNotFound(taskId);
    } else await getTask(taskId, callTool);
    // tasks/update: no Subtext task ever asks for input, so any inputResponses are for keys never issued: ignored.
    return { jsonrpc: '2.0', id, result: { resultType: 'complete' } };
  } catch (err) {
    if (err instanceof TaskNotFound) return fail(INVALID_PARAMS, err.message);
    throw err;
  }
}
