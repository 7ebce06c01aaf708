// A forward HTTP proxy on 127.0.0.1 standing in for one egress identity (what YOUTUBE_PROXY_URLS names): it answers
// absolute-form requests (`GET http://host/path`, what a proxy client sends for http targets) by forwarding them,
// or answers itself when a test makes YouTube "see" this proxy's address differently (a bot check for it alone).
import { createServer, type IncomingMessage, request as httpRequest } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface ForwardProxy {
  url: string;
  /** Absolute URLs of the requests that came through, in order. */
  seen: string[];
  /** Proxy-Authorization headers offered, in order. */
  auth: (string | undefined)[];
  /** Bytes read from and written to the service's connections so far (what a paid proxy bills). */
  bytes(): number;
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

/** `localAddress`: the address the proxy connects to targets from (another loopback address is another exit). */
export async function startForwardProxy(opts: { localAddress?: string } = {}): Promise<ForwardProxy> {
  const seen: string[] = [];
  const auth: (string | undefined)[] = [];
  const own: { match: (url: URL) => boolean; status: number; body: string; contentType: string }[] = [];
  const sockets = new Set<Socket>();
  let closedBytes = 0;
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
      auth.push(req.headers['proxy-authorization']);
      const body = await read(req);
      const mine = own.find((o) => o.match(target));
      if (mine) {
        res.writeHead(mine.status, { 'content-type': mine.contentType });
        return res.end(mine.body);
      }
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(([k, v]) => !HOP_BY_HOP.has(k) && typeof v === 'string'),
      ) as Record<string, string>;
      // The answer is passed on as it came (gzip'd stays gzip'd), as a real proxy does.
      const upstream = httpRequest(target, {
        method: req.method,
        headers: { ...headers, ...(body.length ? { 'content-length': String(body.length) } : {}) },
        localAddress: opts.localAddress,
      });
      upstream.on('response', (answer) => {
        const out: Record<string, string> = {};
        for (const [k, v] of Object.entries(answer.headers))
          if (typeof v === 'string' && !HOP_BY_HOP.has(k)) out[k] = v;
        if (answer.headers['content-length']) out['content-length'] = answer.headers['content-length'];
        res.writeHead(answer.statusCode ?? 502, out);
        answer.pipe(res);
      });
      upstream.on('error', () => res.destroy());
      upstream.end(body);
    })().catch(() => res.destroy());
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => {
      closedBytes += socket.bytesRead + socket.bytesWritten;
      sockets.delete(socket);
    });
  });
  server.keepAliveTimeout = 100;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    auth,
    bytes: () => [...sockets].reduce((n, s) => n + s.bytesRead + s.bytesWritten, closedBytes),
    answer: (match, status, body, contentType = 'application/json') =>
      void own.push({ match, status, body, contentType }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
