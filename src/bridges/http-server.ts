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
export const MAX_HEADER_BYTES = 2 * MAX_URL_BYTES;

/**
 * Requests Node refuses before the app sees them (headers over MAX_HEADER_BYTES, unparsable HTTP): by default an
 * empty 431/400. Answered here in the spec's error shape with a request id, then the connection is closed.
 */
function answerClientError(err: Error & { code?: string }, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
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
  return server;
}
