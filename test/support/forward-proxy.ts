// A forward HTTP proxy on 127.0.0.1 standing in for one egress identity (what YOUTUBE_PROXY_URLS names): it answers
// absolute-form requests (`GET http://host/path`, what a proxy client sends for http targets) by forwarding them,
// or answers itself when a test makes YouTube "see" this proxy's address differently (a bot check for it alone).
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ForwardProxy {
  url: string;
  /** Absolute URLs of the requests that came through, in order. */
  seen: string[];
  /** Answer matching requests here instead of forwarding them. */
  answer(match: (url: URL) => boolean, status: number, body: string, contentType?: string): void;
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set([
  'connection',
  'proxy-connection',
  'keep-alive',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'content-length',
]);

export async function startForwardProxy(): Promise<ForwardProxy> {
  const seen: string[] = [];
  const own: { match: (url: URL) => boolean; status: number; body: string; contentType: string }[] = [];
  const read = (req: IncomingMessage) =>
    new Promise<Buffer>((resolve, reject) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => resolve(Buffer.concat(chunks)));
      req.on('error', reject);
    });
  const server = createServer((req, res) => {
    void (async () => {
      const target = new URL(req.url ?? '/');
      seen.push(target.toString());
      const body = await read(req);
      const mine = own.find((o) => o.match(target));
      if (mine) {
        res.writeHead(mine.status, { 'content-type': mine.contentType });
        return res.end(mine.body);
      }
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(([k, v]) => !HOP_BY_HOP.has(k) && typeof v === 'string'),
      ) as Record<string, string>;
      const upstream = await fetch(target, {
        method: req.method,
        headers,
        body: body.length ? new Uint8Array(body) : undefined,
        redirect: 'manual',
      });
      const bytes = Buffer.from(await upstream.arrayBuffer());
      res.writeHead(upstream.status, {
        'content-type': upstream.headers.get('content-type') ?? 'application/octet-stream',
        'content-length': bytes.length,
      });
      res.end(bytes);
    })().catch(() => res.destroy());
  });
  server.keepAliveTimeout = 100;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    answer: (match, status, body, contentType = 'application/json') =>
      void own.push({ match, status, body, contentType }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
