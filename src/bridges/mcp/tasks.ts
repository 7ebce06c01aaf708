// The Tasks extension (io.modelcontextprotocol/tasks, revision 2026-07-28): long work (speech-to-text, translations,
// summaries, batches) is answered as a task handle to a client that declares the extension on its request, and
// tasks/get polls the job or batch behind it. Clients that do not declare it get today's answer (status queued or
// running with a job to poll). The task id is the job's or batch's own id, so a task is exactly as durable, and as
// private to its account, as the job is: the tools that read them answer another account's id as not found. Which
// tool started, reads or cancels a task is its procedure's `meta.mcp.task` (src/router/mcp-tasks.ts).
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { TaskWork } from '../../router/mcp-projection.ts';
import { taskCanceller, taskReader, type ToolDef } from './tools.ts';

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
const CLIENT_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
/** Jobs and batches are checked this often by a polite client; they move in seconds, not milliseconds. */
const POLL_INTERVAL_MS = 2_000;
const INVALID_PARAMS = -32602;
const MISSING_CAPABILITY = -32021;

type Json = Record<string, unknown>;
/** Runs a tool as tools/call would (a stored part read as values). */
export type CallTool = (tool: ToolDef, args: Json) => Promise<CallToolResult>;

/** Whether a request's per-request capabilities declare the extension (the only place the spec allows it). */
export function declaresTasks(params: unknown): boolean {
  const meta = (params as { _meta?: Json } | undefined)?._meta;
  const caps = meta?.[CLIENT_CAPABILITIES] as { extensions?: Json } | undefined;
  return !!caps?.extensions && typeof caps.extensions === 'object' && TASKS_EXTENSION in caps.extensions;
}

export const isTaskMethod = (method: unknown) =>
  method === 'tasks/get' || method === 'tasks/update' || method === 'tasks/cancel';

function task(t: TaskWork, status: string, statusMessage: string): Json {
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

/** A tools/call result as a CreateTaskResult (resultType "task") when it started long work; null otherwise. */
function asCreatedTask(tool: ToolDef, result: CallToolResult): Json | null {
  const out = result.structuredContent;
  const work = out && !result.isError ? (tool.entry.meta.mcp!.task?.started?.(out) ?? null) : null;
  if (!work) return null;
  return { resultType: 'task', ...task(work, 'working', 'Started; poll tasks/get with this taskId') };
}

/** tasks/get: the job's or batch's state as a task, with the finished tool result inlined. */
async function getTask(taskId: string, callTool: CallTool): Promise<Json> {
  const reader = taskReader(taskId);
  if (!reader) throw new TaskNotFound(taskId);
  const failedIsError = reader.entry.meta.mcp!.task!.reads!.failedIsError ?? false;
  const result = await callTool(reader, { id: taskId });
  const out = result.structuredContent as (TaskWork & Json) | undefined;
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
        result: out.status === 'failed' && failedIsError ? failedJobResult(out) : result,
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
    // The request was counted as one call: a task its cancelling tool claims (a batch) is cancelled by that tool
    // alone (it answers another account's as not found), the rest need the task to exist and be the caller's.
    const canceller = message.method === 'tasks/cancel' ? taskCanceller(taskId) : undefined;
    if (canceller) {
      if ((await callTool(canceller, { id: taskId })).isError) throw new TaskNotFound(taskId);
    } else await getTask(taskId, callTool);
    // tasks/update: no Subtext task ever asks for input, so any inputResponses are for keys never issued: ignored.
    return { jsonrpc: '2.0', id, result: { resultType: 'complete' } };
  } catch (err) {
    if (err instanceof TaskNotFound) return fail(INVALID_PARAMS, err.message);
    throw err;
  }
}

/** A tools/call answer that started long work, turned into a CreateTaskResult (the client declared the extension). */
export async function asTaskAnswer(response: Response, tool: ToolDef): Promise<Response> {
  const text = await response.text();
  let body: { result?: CallToolResult } | undefined;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const created = body?.result ? asCreatedTask(tool, body.result) : null;
  return new Response(created ? JSON.stringify({ ...body, result: created }) : text, {
    status: response.status,
    headers: response.headers,
  });
}
