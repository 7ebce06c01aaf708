// What a procedure's `meta.mcp` may declare beyond its tool: the resources it reads and links, and how the Tasks
// extension sees its answers; and the prompts (src/router/mcp-prompts.ts). The MCP bridge (src/bridges/mcp/) reads
// these and names no tool itself.
import type { z } from 'zod';

/** A `resource_link` a tool result carries (the bridge adds `type`), and the account's resources/list shows. */
export interface McpLink {
  name: string;
  title: string;
  uri: string;
  description?: string;
  mimeType: string;
}

/** What a resources/read answers from the procedure's output; `pending` is content still being made (a job). */
type McpResourceContent =
  | { mimeType: string; text: string }
  | { mimeType: string; blob: string }
  | { pending: string; data: Record<string, unknown> };

/**
 * A `subtext://` resource template read through this procedure, with the caller's context: the same ownership
 * checks, price and errors as the tool. The template is RFC 6570 with `{name}` path segments and at most one `{?name}`.
 */
export interface McpResource {
  name: string;
  template: string;
  title: string;
  mimeType: string;
  /** Says what a read costs. */
  description: string;
  /** The procedure's input for the URI's (decoded) variables, or why they are invalid (-32602, nothing called). */
  input: (vars: Record<string, string | undefined>) => Record<string, unknown> | string;
  /** The read's content from the procedure's output (values, never a stored part). */
  // biome-ignore lint/suspicious/noExplicitAny: each procedure's own output type; meta is shared by all of them
  content: (output: any) => McpResourceContent;
}

/** The job or batch behind a task; the task id is its id. */
export interface TaskWork {
  id: string;
  status: string;
  createdAt?: string;
  updatedAt?: string;
}

/** How the Tasks extension (src/bridges/mcp/tasks.ts) projects a tool. */
export interface McpTask {
  /** The work an answer started and that goes on (the answer becomes a task handle), or null. */
  // biome-ignore lint/suspicious/noExplicitAny: each procedure's own output type; meta is shared by all of them
  started?: (output: any) => TaskWork | null;
  /**
   * tasks/get (and tasks/update) read a task through this tool, called with `{ id }`: tasks whose id starts with
   * `idPrefix`, or every task no other tool claims when it has none. `failedIsError`: a failed status is the task's
   * error result (a job's), not the tool's answer (a batch's).
   */
  reads?: { idPrefix?: string; failedIsError?: boolean };
  /** tasks/cancel cancels the tasks whose id starts with `idPrefix` through this tool (`{ id }`); others are read. */
  cancels?: { idPrefix: string };
}

/** A message of a prompt's answer: an instruction, or a link to a resource it is about. */
export interface McpPromptMessage {
  role: 'user';
  content:
    | { type: 'text'; text: string }
    | { type: 'resource_link'; uri: string; name: string; title: string; mimeType: string };
}

/** An MCP prompt: its listing (the arguments' schema shown to clients) and its answer. */
export interface McpPrompt<S extends z.ZodObject = z.ZodObject> {
  name: string;
  config: { title: string; description: string; argsSchema: S };
  answer: (args: z.infer<S>) => { description: string; messages: McpPromptMessage[] };
}
