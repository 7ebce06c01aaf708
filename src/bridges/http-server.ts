import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { serve } from '@hono/node-server';
import type { Hono } from 'hono';
import { newId } from '../domain/ids.ts';
import { errorBody } from '../router/error-table.ts';
import { MAX_URL_BYTES } from './http-app.ts';
import type { HttpEnv } from './http-env.ts';

/**
 * Node reads the request line and headers up to this size; the app answers 414 for a URL over MAX_URL_BYTES below
 * it, and `answerClientError` answers beyond it.
 */
const MAX_HEADER_BYTES = 2 * MAX_URL_BYTES;

/**
 * Requests Node refuses before the app sees them (headers over MAX_HEADER_BYTES, unparsable HTTP): by default an
 * empty 431/400. Answered here in the spec's error shape with a request id, then the connection is closed.
 */
function answerClientError(err: Error & { code?: string; rawPacket?: Buffer }, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const mcp = err.rawPacket ? mcpRefusal(err.rawPacket) : undefined;
  if (mcp) {
    socket.end(
      `HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(mcp)}\r\n` +
        `x-request-id: ${newId('req')}\r\nconnection: close\r\n\r\n${mcp}`,
    );
    return;
  }
  const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
  const [status, reason] = tooLarge ? [431, 'Request Header Fields Too Large'] : [400, 'Bad Request'];
  const body = JSON.stringify(
    tooLarge
      ? errorBody(
          'HEADERS_TOO_LARGE',
          `The request line and headers are limited to ${MAX_HEADER_BYTES} bytes (URLs to ${MAX_URL_BYTES})`,
        )
      : errorBody('INVALID_REQUEST', 'Malformed HTTP request'),
  );
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` +
      `x-request-id: ${newId('req')}\r\nconnection: close\r\n\r\n${body}`,
  );
}

/** A control character (other than tab) or DEL: what Node's parser refuses in a header value. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this finds
const CONTROL = /[\x00-\x08\x0a-\x1f\x7f]/;

/**
 * A malformed request to /mcp is answered as MCP answers one, a JSON-RPC error: a header the transport mirrors from
 * the body (Mcp-Method, Mcp-Name, Mcp-Param-*, MCP-Protocol-Version) that Node refused, for a control character, is
 * a HeaderMismatch (-32020; 2026-07-28 transports, "Server Validation"); anything else -32600. The id is the body's
 * when it came in the same packet. Undefined for any other path.
 */
function mcpRefusal(raw: Buffer): string | undefined {
  const text = raw.toString('latin1');
  if (!/^[A-Z]+ \/mcp(?:[?#][^ ]*)? HTTP\/1\.[01]\r?\n/.test(text)) return undefined;
  const end = text.indexOf('\r\n\r\n');
  const lines = (end < 0 ? text : text.slice(0, end)).split('\r\n').slice(1);
  const bad = lines.find((l) => CONTROL.test(l.slice(l.indexOf(':') + 1)));
  const name =
    bad
      ?.slice(0, Math.max(0, bad.indexOf(':')))
      .trim()
      .toLowerCase() ?? '';
  const mirrored = name.startsWith('mcp-');
  let id: string | number | null = null;
  if (end >= 0) {
    try {
      const body = JSON.parse(raw.subarray(Buffer.byteLength(text.slice(0, end + 4), 'latin1')).toString('utf8'));
      if (typeof body?.id === 'string' || typeof body?.id === 'number') id = body.id;
    } catch {
      // Not all here, or not JSON: no id to echo.
    }
  }
  const error = mirrored
    ? {
        code: -32020,
        message: `Header ${name} holds a control character: header values must be plain ASCII (clients encode others as =?base64?...?=)`,
      }
    : { code: -32600, message: 'Malformed HTTP request' };
  return JSON.stringify({ jsonrpc: '2.0', id, error });
}

const KEEP_ALIVE_MS = 65_000;

/** The HTTP listener for an app (the service and the tests use the same one). */
export function serveHttp(
  app: Hono<HttpEnv>,
  opts: { port: number; hostname: string },
  onListen?: (info: { port: number }) => void,
): Server {
  const server = serve(
    { fetch: app.fetch, port: opts.port, hostname: opts.hostname, serverOptions: { maxHeaderSize: MAX_HEADER_BYTES } },
    onListen,
  ) as Server;
  server.on('clientError', answerClientError);
  // Idle keep-alive connections outlive a client's (fetch keeps them 4 s, proxies 60 s): a server that closes first
  // races a request sent on the closing socket, which the client sees as ECONNRESET.
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  server.headersTimeout = KEEP_ALIVE_MS + 1_000;
  return server;
}
