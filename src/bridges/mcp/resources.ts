// MCP resources: what Subtext stores (transcripts, translations, articles, frames) as `subtext://` URIs an agent can
// list, fill in from templates and read, and that tool results link to (`resource_link`), so a client can attach a
// transcript to a conversation without pasting it. A read calls the operation the matching tool calls, with the
// caller's context: the same ownership checks (a `media-...` id is its account's alone), the same price (free when
// stored), the same errors. resources/list pages what the account itself obtained, newest first.
import { hasLoneSurrogate } from '../unicode-text.ts';
import {
  ProtocolError,
  ResourceNotFoundError,
  ResourceTemplate,
  type McpServer,
  type ReadResourceResult,
  type ResourceLink,
} from '@modelcontextprotocol/server';
import { credits, FRAME_PRICE, STT_PRICE_PER_MINUTE, TRANSCRIPT_PRICE } from '../../domain/pricing/prices.ts';
import type { LibraryEntry, LibraryPosition } from '../../domain/resources/resource-library.ts';
import { toCiteLines } from '../../domain/transcripts/formats.ts';
import type { Article } from '../../domain/articles/schemas.ts';
import type { RequestArticleOutput } from '../../domain/articles/request-article-schemas.ts';
import type { SingleFrame } from '../../domain/frames/schemas.ts';
import { MAX_PAGE_SEGMENTS, type TranscriptAnswer } from '../../domain/transcripts/schemas.ts';
import type { JobWithResult } from '../../domain/jobs/get-job.ts';
import type { TranslateOutput } from '../../domain/translations/schemas.ts';
import type { Context } from '../../router/context.ts';
import { jsonRpcCode } from './error-response.ts';
import { failureOf } from '../errors/failure.ts';
import { INVALID_PARAMS } from './versions.ts';

/** resources/list answers this many per page; `nextCursor` leads to the next. */
export const RESOURCES_PAGE = 20;
/** A read whose content is still being made (a speech-to-text job): ours, outside JSON-RPC's reserved range. */
const STILL_RUNNING = -31202;

const enc = encodeURIComponent;
export const transcriptUri = (videoId: string, lang?: string) =>
  `subtext://videos/${enc(videoId)}/transcript${lang ? `?lang=${enc(lang)}` : ''}`;
const articleUri = (id: string) => `subtext://articles/${enc(id)}`;
const frameUri = (videoId: string, t: number) => `subtext://frames/${enc(videoId)}/${t}`;

/** Calls a tool's operation with the read's context; throws what the operation throws. */
type CallTool = (ctx: Context, tool: string, args: Record<string, unknown>) => Promise<unknown>;
/** Renders a tool's output as the text its tool result carries. */
type ToolText = (tool: string, output: unknown) => string;

/** Outputs by tool: the procedures' own output types, each validated by its procedure before it gets here. */
interface Outputs {
  get_video_subtitles: TranscriptAnswer;
  translate_transcript: TranslateOutput;
  summarize_video: RequestArticleOutput;
  get_article: Article;
  get_video_frame: SingleFrame;
  get_job: JobWithResult;
}

function transcriptLink(videoId: string, lang: string, source: string): ResourceLink {
  return {
    name: `transcript-${videoId}-${lang}`,
    title: `Transcript of ${videoId} (${lang}${source === 'translation' ? ', translation' : ''})`,
    uri: transcriptUri(videoId, lang),
    description: 'Timed transcript as "[h:mm:ss] text" lines; reading it again is free.',
    mimeType: 'text/plain',
    type: 'resource_link',
  };
}

function articleLink(a: Article): ResourceLink {
  return {
    name: `article-${a.id}`,
    title: String(a.title ?? a.id),
    uri: articleUri(a.id),
    description: `Article about ${a.videoId} in ${a.lang}, sections with timestamps; free to read.`,
    mimeType: 'text/markdown',
    type: 'resource_link',
  };
}

/**
 * The resources a tool's successful output made or names, as `resource_link` content for its result. Links are
 * written with their keys in the order the SDK's result schema writes them, so that a tool result answered without
 * the SDK (src/bridges/mcp/direct-call.ts) is the same text (test/contract/mcp-transport.test.ts).
 */
export function resourceLinksFor(tool: string, output: unknown): ResourceLink[] {
  if (!output || typeof output !== 'object') return [];
  const as = <K extends keyof Outputs>(_: K) => output as Outputs[K];
  switch (tool) {
    case 'get_video_subtitles': {
      const o = as('get_video_subtitles');
      return o.status === 'succeeded' ? [transcriptLink(o.videoId, o.lang, o.source)] : [];
    }
    case 'translate_transcript': {
      const o = as('translate_transcript');
      return o.translation ? [transcriptLink(o.translation.videoId, o.translation.targetLang, 'translation')] : [];
    }
    case 'summarize_video': {
      const o = as('summarize_video');
      return o.article ? [articleLink(o.article)] : [];
    }
    case 'get_article':
      return [articleLink(as('get_article'))];
    case 'get_job': {
      // A finished job links what it made, as the tool that started it would have.
      const r = as('get_job').result;
      if (r?.transcript) return resourceLinksFor('get_video_subtitles', r.transcript);
      if (r?.translation) return resourceLinksFor('translate_transcript', { translation: r.translation });
      return r?.article ? [articleLink(r.article)] : [];
    }
    case 'get_video_frame': {
      const o = as('get_video_frame');
      return [
        {
          name: `frame-${o.videoId}-${o.t}`,
          title: `Frame of ${o.videoId} at ${o.t} s`,
          uri: frameUri(o.videoId, o.t),
          mimeType: o.mimeType,
          type: 'resource_link',
        },
      ];
    }
    default:
      return [];
  }
}

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

type Route =
  | { kind: 'transcript'; videoId: string; lang: string | undefined }
  | { kind: 'article'; id: string }
  | { kind: 'frame'; videoId: string; t: string };

const SEGMENT = '([^/?#]+)';
const TRANSCRIPT = new RegExp(`^subtext://videos/${SEGMENT}/transcript(?:\\?lang=([^&#]*))?$`);
const ARTICLE = new RegExp(`^subtext://articles/${SEGMENT}$`);
const FRAME = new RegExp(`^subtext://frames/${SEGMENT}/${SEGMENT}$`);

/** Which of the three templates a URI fills, with its values decoded; undefined when none (not found). */
function routeOf(uri: string): Route | undefined {
  if (uri.length > 4096) return undefined;
  try {
    let m = TRANSCRIPT.exec(uri);
    if (m)
      return {
        kind: 'transcript',
        videoId: decodeURIComponent(m[1]!),
        lang: m[2] ? decodeURIComponent(m[2]) : undefined,
      };
    m = ARTICLE.exec(uri);
    if (m) return { kind: 'article', id: decodeURIComponent(m[1]!) };
    m = FRAME.exec(uri);
    if (m) return { kind: 'frame', videoId: decodeURIComponent(m[1]!), t: decodeURIComponent(m[2]!) };
  } catch {
    // A malformed %-escape: no such resource.
  }
  return undefined;
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
  text: ToolText;
  note: LibraryNotes;
}

type Read = <K extends keyof Outputs>(uri: URL, tool: K, args: Record<string, unknown>) => Promise<Outputs[K]>;

/** One operation call for a read, noted in the account's list; its failure as the read's JSON-RPC error. */
function readerOf({ readContext, accountId, call, note }: ResourceHost): Read {
  return async (uri, tool, args) => {
    const ctx = readContext();
    try {
      const output = await call(ctx, tool, args);
      await note(ctx, accountId, libraryEntries(resourceLinksFor(tool, output)));
      return output as Outputs[typeof tool];
    } catch (err) {
      throw readFailure(err, uri.href, ctx);
    }
  };
}

async function readTranscript(read: Read, uri: URL, videoId: string, lang: string | undefined) {
  const t = await read(uri, 'get_video_subtitles', { videoId, ...(lang ? { lang } : {}), limit: MAX_PAGE_SEGMENTS });
  if (t.status !== 'succeeded')
    // A video without captions: speech-to-text runs as a job, as for the tool; once it succeeds the read is free.
    throw new ProtocolError(
      STILL_RUNNING,
      `${t.videoId} has no captions: speech-to-text is ${t.status} as job ${t.job.id} (about ${credits(t.estimatedCredits)} when it succeeds); poll get_job, then read this resource again (free)`,
      { uri: uri.href, job: t.job, status: t.status, estimatedCredits: t.estimatedCredits },
    );
  const rest =
    t.nextOffset === null
      ? ''
      : `\n\n(${t.segmentCount - t.nextOffset} more segments: call get_video_subtitles with offset=${t.nextOffset}.)`;
  const result: ReadResourceResult = {
    contents: [{ uri: uri.href, mimeType: 'text/plain', text: `${toCiteLines(t.segments).trimEnd()}${rest}` }],
  };
  return result;
}

async function readFrame(read: Read, uri: URL, videoId: string, at: string): Promise<ReadResourceResult> {
  const t = Number(at);
  if (at.trim() === '' || !Number.isFinite(t))
    throw new ProtocolError(INVALID_PARAMS, 't must be a number of seconds', { uri: uri.href });
  const f = await read(uri, 'get_video_frame', { videoId, t });
  return { contents: [{ uri: uri.href, mimeType: f.mimeType, blob: f.base64 }] };
}

/** Reads a URI that fits a template (see routeOf). */
async function readRoute(host: ResourceHost, read: Read, uri: URL, route: Route): Promise<ReadResourceResult> {
  if (route.kind === 'transcript') return readTranscript(read, uri, route.videoId, route.lang);
  if (route.kind === 'frame') return readFrame(read, uri, route.videoId, route.t);
  const a = await read(uri, 'get_article', { id: route.id });
  return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text: host.text('get_article', a) }] };
}

/** The templates as resources/templates/list shows them; each description says what a read costs. */
const TEMPLATES = [
  {
    name: 'transcript',
    template: 'subtext://videos/{videoId}/transcript{?lang}',
    title: 'Transcript of a video',
    mimeType: 'text/plain',
    description:
      'A video’s timed transcript as "[h:mm:ss] text" lines. videoId: a YouTube video id, or a media-... id this account created. lang (optional, BCP 47): the captions in that language, or a stored translation into it; omitted, the video’s default track. ' +
      `Free when stored (fetched before, by anyone); otherwise read from the video’s captions, costing ${credits(TRANSCRIPT_PRICE)} as get_video_subtitles does. A video without captions is transcribed by speech-to-text as get_video_subtitles does (${credits(STT_PRICE_PER_MINUTE)} per started minute, charged when it succeeds): the read then fails naming the job to poll with get_job, and reading again once it succeeded is free.`,
  },
  {
    name: 'article',
    template: 'subtext://articles/{id}',
    title: 'Article',
    mimeType: 'text/markdown',
    description:
      'An article made from a video (summarize_video, search_articles): title, summary, sections with timestamps, key points, as markdown. Free.',
  },
  {
    name: 'frame',
    template: 'subtext://frames/{videoId}/{t}',
    title: 'Frame of a video',
    mimeType: 'image/jpeg',
    description: `A JPEG still of a video at t seconds (decimals allowed), 640 pixels wide. Costs ${credits(FRAME_PRICE)} the first time that frame is captured; free after.`,
  },
];

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
  const read = readerOf(host);
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
    return readRoute(host, read, uri, route);
  };
  for (const { name, template, ...metadata } of TEMPLATES)
    server.registerResource(name, new ResourceTemplate(template, { list: undefined }), metadata, (uri) =>
      byUri(uri.href),
    );
  // The SDK's template matching needs every query variable present (`.../transcript` alone would be not found), so
  // reads are routed here, by the same three shapes the templates list.
  server.server.removeRequestHandler('resources/read');
  server.server.setRequestHandler('resources/read', (request) => byUri(request.params.uri));
  // The SDK lists resources in one page from the templates' callbacks; this list is per account and paged.
  server.server.removeRequestHandler('resources/list');
  server.server.setRequestHandler('resources/list', (request) => listPage(host, request.params?.cursor));
}
