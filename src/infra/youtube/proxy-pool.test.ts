// A residential proxy is paid by the byte: nothing leaves through one outside a reservation (a caption URL bound to
// it, a stream, anything not the player request the ladder reserved for), and what does is metered.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProxyPool, meterScope } from './proxy-pool.ts';

describe('a residential identity', () => {
  let proxy: Server;
  let url = '';
  const asked: string[] = [];
  beforeAll(async () => {
    // A forward proxy answering every absolute-form request itself.
    proxy = createServer((req, res) => {
      asked.push(req.url ?? '');
      res.end('answer');
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    url = `http://user:secret@127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => proxy.close(() => r())));

  it('sends nothing outside a reservation, and is metered inside one', async () => {
    const counted: [string, string, number][] = [];
    const pool = createProxyPool([], [url], (_identity, scope, direction, bytes) => {
      counted.push([scope?.purpose ?? 'other', direction, bytes]);
      if (scope?.reserved) scope.bytes += bytes;
    });
    const dispatcher = pool.dispatcher(pool.residential[0]!);
    const ask = () => fetch('http://video.example/timedtext', { dispatcher } as RequestInit);
    await expect(meterScope.run({ purpose: 'captions', bytes: 0, reserved: false }, ask)).rejects.toThrow();
    await expect(ask()).rejects.toThrow();
    expect(asked).toEqual([]);
    const scope = { purpose: 'metadata', bytes: 0, reserved: true, cap: 10_000 };
    expect(await meterScope.run(scope, async () => (await ask()).text())).toBe('answer');
    expect(asked).toEqual(['http://video.example/timedtext']);
    expect(scope.bytes).toBeGreaterThan(0);
  });
});
