import type { ResourceLink, StandardSchemaWithJSON, ToolAnnotations } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { appRouter } from '../../router/index.ts';
import { listProcedures, type ProcedureEntry } from '../procedures.ts';

/** The MCP App (app-resource.ts) that tools marked `app` render their answers in. */
export const VIEWER_URI = 'ui://subtext/viewer.html';

export interface ToolDef {
  name: string;
  entry: ProcedureEntry;
  config: {
    description: string;
    inputSchema: StandardSchemaWithJSON;
    outputSchema?: StandardSchemaWithJSON;
    annotations: ToolAnnotations;
    _meta?: Record<string, unknown>;
  };
}

function jsonSchema(schema: unknown, io: 'input' | 'output'): Record<string, unknown> {
  const js = z.toJSONSchema(schema as z.ZodType, { io, unrepresentable: 'any' }) as Record<string, unknown>;
  delete js.$schema;
  return { type: 'object', ...js };
}

/**
 * A schema the SDK lists as the procedure's JSON Schema but does not validate against: the procedure validates
 * (tRPC runs its zod input and output schemas on every call), so a tool refuses exactly what REST and tRPC
 * refuse, with the same message, as an `isError` result.
 */
function listedOnly(json: Record<string, unknown>): StandardSchemaWithJSON {
  return {
    '~standard': {
      version: 1,
      vendor: 'subtext',
      validate: (value: unknown) => ({ value }),
      jsonSchema: { input: () => json, output: () => json },
    },
  } as unknown as StandardSchemaWithJSON;
}

/**
 * Annotations from the procedure's meta. A read-only tool is idempotent by definition; the spec's default for
 * destructiveHint is true, so it is stated: no tool deletes or overwrites anything.
 */
function annotations(meta: NonNullable<ProcedureEntry['meta']['mcp']>): ToolAnnotations {
  const readOnly = meta.readOnly ?? false;
  return {
    readOnlyHint: readOnly,
    destructiveHint: false,
    idempotentHint: readOnly || (meta.idempotent ?? false),
    openWorldHint: meta.openWorld ?? false,
  };
}

function buildTools(): ToolDef[] {
  return listProcedures(appRouter)
    .filter((e) => e.meta.mcp)
    .map((entry) => {
      const mcp = entry.meta.mcp!;
      const def = entry.procedure._def as unknown as { inputs: unknown[]; output?: unknown };
      const config: ToolDef['config'] = {
        description: mcp.description,
        inputSchema: listedOnly(jsonSchema(def.inputs[0] ?? z.object({}), 'input')),
        annotations: annotations(mcp),
      };
      // An image tool answers image content, not structured data.
      if (def.output && !mcp.image) config.outputSchema = listedOnly(jsonSchema(def.output, 'output'));
      // The MCP Apps extension: the preferred key and the legacy one older hosts read.
      if (mcp.app) config._meta = { ui: { resourceUri: VIEWER_URI }, 'ui/resourceUri': VIEWER_URI };
      return { name: mcp.name, entry, config };
    });
}

let tools: ToolDef[] | undefined;
/** Every procedure marked `meta.mcp` becomes a tool with the procedure's input and output schemas. */
export const mcpTools = () => (tools ??= buildTools());

let byName: Map<string, ToolDef[]> | undefined;
/**
 * The tools a server made for one request registers: for a tools/call, the called tool alone (a stateless server
 * answers that one message); every tool otherwise, or when no tool has that name (the SDK then answers "not found").
 */
export function toolsFor(called: string | undefined): ToolDef[] {
  byName ??= new Map(mcpTools().map((t) => [t.name, [t]]));
  return (called !== undefined && byName.get(called)) || mcpTools();
}

/** The tools that read a `subtext://` resource template (`meta.mcp.resource`), in the router's order. */
export const resourceTools = () => mcpTools().filter((t) => t.entry.meta.mcp!.resource);

/**
 * The resources a tool's successful output made or names (`meta.mcp.links`), as `resource_link` content. Keys in the
 * order the SDK's result schema writes them, so that a result answered without the SDK
 * (src/bridges/mcp/direct-call.ts) is the same text (test/contract/mcp-transport.test.ts).
 */
export function resourceLinksFor(tool: ToolDef, output: unknown): ResourceLink[] {
  const links = tool.entry.meta.mcp!.links;
  if (!links || !output || typeof output !== 'object') return [];
  return links(output).map(({ name, title, uri, description, mimeType }) => ({
    name,
    title,
    uri,
    ...(description === undefined ? {} : { description }),
    mimeType,
    type: 'resource_link' as const,
  }));
}

const claims = (prefix: string | undefined, taskId: string) => prefix === undefined || taskId.startsWith(prefix);
/** The tool tasks/get reads a task with (`meta.mcp.task.reads`): the one claiming its id's prefix, else the catch-all. */
export function taskReader(taskId: string): ToolDef | undefined {
  const readers = mcpTools().filter((t) => t.entry.meta.mcp!.task?.reads);
  const prefixOf = (t: ToolDef) => t.entry.meta.mcp!.task!.reads!.idPrefix;
  return (
    readers.find((t) => prefixOf(t) !== undefined && claims(prefixOf(t), taskId)) ??
    readers.find((t) => prefixOf(t) === undefined)
  );
}

/** The tool tasks/cancel cancels a task with (`meta.mcp.task.cancels`), if any claims its id. */
export const taskCanceller = (taskId: string): ToolDef | undefined =>
  mcpTools().find((t) => {
    const cancels = t.entry.meta.mcp!.task?.cancels;
    return cancels !== undefined && taskId.startsWith(cancels.idPrefix);
  });
