// A webhook receiver on 127.0.0.1 for tests: records every delivery (headers and exact body) and answers with the
// statuses it is told, in order (then 200). Tests await deliveries; nothing sleeps.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  headers: Record<string, string>;
  body: string;
  at: number;
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  /** Answers the next requests with these statuses, in order; 200 after them. */
  failNext(statuses: number[]): void;
  waitFor(n: number): Promise<ReceivedWebhook[]>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(path = '/hooks/subtext'): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const plan: number[] = [];
  const listeners = new Set<() => void>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers = Object.fromEntries(
        Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : (v ?? '')]),
      );
      received.push({ headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
      for (const l of listeners) l();
      res.writeHead(req.url === path ? (plan.shift() ?? 200) : 404).end();
    });
  });
  server.keepAliveTimeout = 100;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
  return {
    url,
    received,
    failNext: (statuses) => void plan.push(...statuses),
    waitFor: (n) =>
      new Promise((resolve) => {
        const check = () => {
          if (received.length < n) return;
          listeners.delete(check);
          resolve(received.slice(0, n));
        };
        listeners.add(check);
        check();
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
