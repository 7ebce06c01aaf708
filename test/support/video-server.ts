// A loopback HTTP server for frame tests: serves files with Range support, answers redirects or hangs, and records
// every request with the bytes it sent, so a test can tell how much a seek read and whether a URL was ever opened.
import { createReadStream, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Route =
  | { file: string; contentType?: string }
  | { redirect: string; status?: number }
  | { hang: true }
  | { handle: (req: IncomingMessage, res: ServerResponse, served: ServedRequest) => void };

export interface ServedRequest {
  method: string;
  path: string;
  range: string | undefined;
  /** Who asked: ffmpeg says Lavf/..., our own fetches undici's. */
  userAgent: string | undefined;
  status: number;
  bytesSent: number;
  /** Resolves when the client closes the connection or the response ends. */
  closed: Promise<void>;
}

export interface VideoServer {
  origin: string;
  url(path: string): string;
  requests: ServedRequest[];
  bytesSent(): number;
  close(): Promise<void>;
}

/** `fallback` answers paths with no exact route (e.g. every storyboard sheet). */
export async function startVideoServer(
  routes: Record<string, Route>,
  fallback?: (path: string) => Route | undefined,
): Promise<VideoServer> {
  const requests: ServedRequest[] = [];
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    let onClosed!: () => void;
    const served: ServedRequest = {
      method: req.method ?? 'GET',
      path,
      range: req.headers.range,
      userAgent: req.headers['user-agent'],
      status: 0,
      bytesSent: 0,
      closed: new Promise((r) => (onClosed = r)),
    };
    res.on('close', onClosed);
    requests.push(served);
    const route = routes[path] ?? fallback?.(path);
    if (!route) return reply(res, served, 404);
    if ('hang' in route) return; // never answers; the client has to give up
    if ('handle' in route) return route.handle(req, res, served);
    if ('redirect' in route) {
      res.setHeader('location', route.redirect);
      return reply(res, served, route.status ?? 302);
    }
    serveFile(req, res, served, route.file, route.contentType ?? 'video/mp4');
  });
  // Killed clients leave half-open sockets; keep-alive must not hold close() up.
  server.keepAliveTimeout = 100;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    url: (path) => origin + path,
    requests,
    bytesSent: () => requests.reduce((n, r) => n + r.bytesSent, 0),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function serveFile(
  req: IncomingMessage,
  res: ServerResponse,
  served: ServedRequest,
  file: string,
  type: string,
) {
  const size = statSync(file).size;
  let start = 0;
  let end = size - 1;
  res.setHeader('accept-ranges', 'bytes');
  res.setHeader('content-type', type);
  const range = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? '');
  if (req.headers.range && range) {
    if (range[1] === '') {
      start = Math.max(0, size - Number(range[2]));
    } else {
      start = Number(range[1]);
      if (range[2] !== '') end = Math.min(end, Number(range[2]));
    }
    if (start > end || start >= size) {
      res.setHeader('content-range', `bytes */${size}`);
      return reply(res, served, 416);
    }
    res.setHeader('content-range', `bytes ${start}-${end}/${size}`);
    served.status = 206;
  } else {
    served.status = 200;
  }
  res.writeHead(served.status, { 'content-length': end - start + 1 });
  if (req.method === 'HEAD') return res.end();
  const stream = createReadStream(file, { start, end, highWaterMark: 16 * 1024 });
  stream.on('data', (chunk) => {
    served.bytesSent += chunk.length;
  });
  stream.pipe(res);
  res.on('close', () => stream.destroy());
}

function reply(res: ServerResponse, served: ServedRequest, status: number) {
  served.status = status;
  res.statusCode = status;
  res.end();
}
