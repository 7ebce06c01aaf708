// A loopback reverse proxy that adds an Authorization header and forwards everything else as sent (Host and
// Origin included): for clients that cannot send a key, such as the MCP conformance suite.
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export async function startAuthProxy(
  target: string,
  authorization: string,
): Promise<{ url: string; close(): Promise<void> }> {
  const to = new URL(target);
  const server: Server = createServer((req, res) => {
    const upstream = request(
      {
        hostname: to.hostname,
        port: to.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, authorization },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      res.writeHead(502).end();
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
