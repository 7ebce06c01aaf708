// The MCP App's one resource: viewer.html with its stylesheet and bundled script inline (a host renders it in a
// sandboxed iframe from the resource's text alone; it loads nothing else).
import { readFile } from 'node:fs/promises';
import type { McpServer, ReadResourceResult } from '@modelcontextprotocol/server';
import { fileURLToPath } from 'node:url';
import { cachedBundle } from '../browser-bundle.ts';
import { mcpTools, VIEWER_URI } from './tools.ts';

const APP_DIR = fileURLToPath(new URL('../../mcp-app/', import.meta.url));

/** The MCP Apps extension's MIME type (SEP-1865). */
const MCP_APP_MIME_TYPE = 'text/html;profile=mcp-app';

let html: Promise<string> | undefined;
/** Built once per process (and cached on disk across starts by source hash). */
export function viewerHtml(): Promise<string> {
  html ??= (async () => {
    const [shell, css, js] = await Promise.all([
      readFile(`${APP_DIR}viewer.html`, 'utf8'),
      readFile(`${APP_DIR}viewer.css`, 'utf8'),
      cachedBundle(APP_DIR, 'viewer.ts', 'mcp-app'),
    ]);
    // A "</script" inside the bundle would end the inline script early.
    return shell.replace('/*STYLES*/', () => css).replace('/*SCRIPT*/', () => js.replace(/<\/script/gi, '<\\/script'));
  })().catch((err: unknown) => {
    html = undefined;
    throw err;
  });
  return html;
}

const VIEWER_META = { ui: { prefersBorder: true } };

/** The tools whose answers the viewer shows (`meta.mcp.app`). */
const appTools = () =>
  mcpTools()
    .filter((t) => t.entry.meta.mcp!.app)
    .map((t) => t.name)
    .join(' and ');

let viewer: ReturnType<typeof buildViewer> | undefined;
/**
 * The viewer as a resource of every per-request server. It loads nothing from anywhere (frames come back from tools
 * as base64), so it asks for no CSP domains and no permissions; free to read, like every resource.
 */
export const viewerResource = () => (viewer ??= buildViewer());

function buildViewer() {
  return {
    uri: VIEWER_URI,
    name: 'Subtext viewer',
    title: 'Subtext viewer',
    description: `MCP App: a transcript with clickable timestamps (the frame at that moment), a translation side by side, SRT/VTT downloads. Shown by hosts that render apps for ${appTools()}.`,
    mimeType: MCP_APP_MIME_TYPE,
    _meta: VIEWER_META,
    read: async (): Promise<ReadResourceResult> => ({
      contents: [{ uri: VIEWER_URI, mimeType: MCP_APP_MIME_TYPE, text: await viewerHtml(), _meta: VIEWER_META }],
    }),
  };
}

export function registerViewer(server: McpServer) {
  const { uri, name, read, ...metadata } = viewerResource();
  server.registerResource(name, uri, metadata, read);
}
