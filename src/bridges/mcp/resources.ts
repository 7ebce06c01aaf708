// MCP resources: what Subtext stores (transcripts, translations, articles, frames) as `subtext://` URIs an agent can
// list, fill in from templates and read, and that tool results link to (`resource_link`), so a client can attach a
// transcript to a conversation without pasting it. Each template is a procedure's `meta.mcp.resource`
// (src/router/mcp-resources/): a read calls that procedure with the caller's context, through the endpoint's one call
// path, so the same ownership checks (a `media-...` id is its account's alone), the same price (free when stored),
// the same errors. resources/list pages what the account itself obtained, newest first.
import { hasLoneSurrogate } from '../unicode-text.ts';
import {
  ProtocolError,
  ResourceNotFoundError,
  ResourceTemplate,
  type McpServer,
  type ReadResourceResult,
  type ResourceLink,
} from '@modelcontextprotocol/server';
import type { LibraryEntry, LibraryPosition } from '../../domain/resources/resource-library.ts';
import type { Context } from '../../router/context.ts';
import type { McpResource } from '../../router/mcp-projection.ts';
import { templateMatcher } from '../../router/mcp-resources/uri-template.ts';
import { jsonRpcCode } from './error-response.ts';
import { failureOf } from '../errors/failure.ts';
import { INVALID_PARAMS } from './versions.ts';
import { resourceTools, type ToolDef } from './tools.ts';

/** resources/list answers this many per page; `nextCursor` leads to the next. */
export const RESOURCES_PAGE = 20;
/** A read whose content is still being made (a speech-to-text job): ours, outside JSON-RPC's reserved range. */
const STILL_RUNNING = -31202;

/** Runs a tool's procedure with a read's context (the endpoint's call path); throws what the procedure throws. */
type CallTool = (ctx: Context, tool: ToolDef, args: Record<string, unknown>) => Promise<unknown>;

export const libraryEntries = (links: ResourceLink[]): LibraryEntry[] =>
  links.map((l) => ({ uri: l.uri, name: l.name, title: l.title ?? l.name, mimeType: l.mimeType ?? 'text/plain' }));

/**
 * Records what an account obtained, for resources/list. A row already noted by this process in the last minute is
 * not written again, so a transcript read page after page costs one upsert, not one per page.
 */
export function createLibraryNotes(maxEntries = 10_000, ttlMs = 60_000) {
  const recent = new Map<string, number>();
  return async function note(ctx: Context, accountId: string, entries: LibraryEntry[]): Promise<void> {
    const now = Date.now();
    const fresh = entries.filter((e) => {
      const key = `${accountId}\u0000${e.uri}`;
      const at = recent.get(key);
      if (at !== undefined && now - at < ttlMs) return false;
      if (recent.size >= maxEntries) recent.clear();
      recent.set(key, now);
      return true;
    });
    if (fresh.length === 0) return;
    try {
      await ctx.deps.resourceLibrary.note(accountId, fresh);
    } catch (err) {
      // The answer is already made and paid for: a listing that misses it is the lesser harm.
      for (const e of fresh) recent.delete(`${accountId}\u0000${e.uri}`);
      ctx.log.warn({ err }, 'could not record MCP resources for the account');
    }
  };
}
export type LibraryNotes = ReturnType<typeof createLibraryNotes>;

function encodeCursor(p: LibraryPosition): string {
  return Buffer.from(JSON.stringify([p.seenAt, p.uri])).toString('base64url');
}

/** PostgreSQL's text form of a timestamptz that is a real instant (a month 13 or a 31 February would fail the query). */
function isTimestamp(s: string): boolean {
  const m = /^(\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)(?:\.\d{1,6})?[+-](\d\d)(?::(\d\d))?$/.exec(s);
  if (!m) return false;
  const [y, mo, d, h, mi, sec, oh, om = 0] = m.slice(1).map((x) => (x === undefined ? undefined : Number(x))) as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number | undefined,
  ];
  const day = new Date(0);
  day.setUTCFullYear(y, mo - 1, d);
  // PostgreSQL takes offsets up to 15:59 (a +15:99 or +16 fails the query with its own message).
  const offsetOk = oh < 16 && om < 60;
  return y >= 1 && day.getUTCMonth() === mo - 1 && day.getUTCDate() === d && h < 24 && mi < 60 && sec < 60 && offsetOk;
}

/** A cursor we gave, or -32602: it names a position in the account's own list, nothing else. */
function decodeCursor(cursor: string): LibraryPosition {
  const invalid = () =>
    new ProtocolError(INVALID_PARAMS, 'Invalid cursor: pass nextCursor from a resources/list answer');
  if (cursor.length > 2048 || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw invalid();
  let v: unknown;
  try {
    v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (!Array.isArray(v) || v.length !== 2) throw invalid();
  const [seenAt, uri] = v;
  if (typeof seenAt !== 'string' || !isTimestamp(seenAt)) throw invalid();
  // A NUL or a lone surrogate is text PostgreSQL cannot compare: no URI we list holds one.
  if (typeof uri !== 'string' || !uri.startsWith('subtext://') || uri.length > 1024) throw invalid();
  if (uri.includes('\u0000') || hasLoneSurrogate(uri)) throw invalid();
  return { seenAt, uri };
}

/** An operation's failure as the JSON-RPC error of a resources/read: not found is -32602 with the URI (SEP-2164). */
function readFailure(err: unknown, uri: string, ctx: Context): Error {
  const f = failureOf(err, ctx.requestId);
  if (f.status === 404) return new ResourceNotFoundError(uri, f.message);
  const data = { code: f.code, httpStatus: f.status, requestId: ctx.requestId, uri };
  const code = f.status === 400 || f.status === 422 ? INVALID_PARAMS : jsonRpcCode(f);
  return new ProtocolError(code, f.message, data);
}

/** A resource at a fixed URI, the same for everyone (the MCP App's viewer): listed first, read as it says. */
interface StaticResource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  _meta?: Record<string, unknown>;
  read(): Promise<ReadResourceResult>;
}

export interface ResourceHost {
  ctx: Context;
  /** The context one read runs with: the request's, or in a JSON-RPC batch one with an id of its own. */
  readContext: () => Context;
  accountId: string;
  statics?: StaticResource[];
  call: CallTool;
}

interface Template {
  tool: ToolDef;
  resource: McpResource;
  match: ReturnType<typeof templateMatcher>;
}
let templates: Template[] | undefined;
const templatesOf = () =>
  (templates ??= resourceTools().map((tool) => {
    const resource = tool.entry.meta.mcp!.resource!;
    return { tool, resource, match: templateMatcher(resource.template) };
  }));

/** The template a URI fills, with its values decoded; undefined when none (not found). */
function routeOf(uri: string): { template: Template; vars: Record<string, string | undefined> } | undefined {
  if (uri.length > 4096) return undefined;
  for (const template of templatesOf()) {
    const vars = template.match(uri);
    if (vars) return { template, vars };
  }
  return undefined;
}

/** Reads a URI that fits a template: its procedure's answer as the content, its failure as the read's error. */
async function readRoute(host: ResourceHost, uri: URL, { template, vars }: NonNullable<ReturnType<typeof routeOf>>) {
  const input = template.resource.input(vars);
  if (typeof input === 'string') throw new ProtocolError(INVALID_PARAMS, input, { uri: uri.href });
  const ctx = host.readContext();
  let output: unknown;
  try {
    output = await host.call(ctx, template.tool, input);
  } catch (err) {
    throw readFailure(err, uri.href, ctx);
  }
  const content = template.resource.content(output);
  if ('pending' in content) throw new ProtocolError(STILL_RUNNING, content.pending, { uri: uri.href, ...content.data });
  const result: ReadResourceResult = { contents: [{ uri: uri.href, ...content }] };
  return result;
}

/** resources/list: the fixed resources, then the account's own, newest first, a page at a time. */
async function listPage(host: ResourceHost, cursor: string | undefined) {
  const after = cursor === undefined ? null : decodeCursor(cursor);
  const rows = await host.ctx.deps.resourceLibrary.page(host.accountId, after, RESOURCES_PAGE + 1);
  const page = rows.slice(0, RESOURCES_PAGE);
  const last = page.at(-1);
  const statics = after ? [] : (host.statics ?? []).map(({ read: _read, ...listed }) => listed);
  return {
    resources: [...statics, ...page.map((r) => ({ uri: r.uri, name: r.name, title: r.title, mimeType: r.mimeType }))],
    ...(rows.length > RESOURCES_PAGE && last ? { nextCursor: encodeCursor(last) } : {}),
  };
}

/** Registers the templates and the account's paged list on a per-request server. */
export function registerResources(server: McpServer, host: ResourceHost): void {
  const byUri = async (raw: string): Promise<ReadResourceResult> => {
    const fixed = host.statics?.find((r) => r.uri === raw);
    if (fixed) return fixed.read();
    const route = routeOf(raw);
    let uri: URL | undefined;
    try {
      uri = new URL(raw);
    } catch {
      uri = undefined;
    }
    if (!route || !uri) throw new ResourceNotFoundError(raw);
    return readRoute(host, uri, route);
  };
  for (const { resource } of templatesOf()) {
    const { name, template, title, mimeType, description } = resource;
    const metadata = { title, mimeType, description };
    server.registerResource(name, new ResourceTemplate(template, { list: undefined }), metadata, (uri) =>
      byUri(uri.href),
    );
  }
  // The SDK's template matching needs every query variable present (`.../transcript` alone would be not found), so
  // reads are routed here, by the same templates.
  server.server.removeRequestHandler('resources/read');
  server.server.setRequestHandler('resources/read', (request) => byUri(request.params.uri));
  // The SDK lists resources in one page from the templates' callbacks; this list is per account and paged.
  server.server.removeRequestHandler('resources/list');
  server.server.setRequestHandler('resources/list', (request) => listPage(host, request.params?.cursor));
}
