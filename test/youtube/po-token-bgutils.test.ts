// In-process PO token minting (bgutils-js + jsdom in a worker thread), wired against a loopback YouTube. The real
// BotGuard interpreter is Google's and cannot be had offline: the challenge here carries a stand-in interpreter that
// implements the VM interface bgutils-js drives (vm.a(program, setup...), the snapshot callback, the minter it
// pushes into webPoSignalOutput). The page here carries no ytAtN challenge, so the worker takes the standalone one
// (po-token-page.test.ts has the page's). What this proves: the worker starts with a DOM on its globalThis, loads
// the page, fetches the challenge from /api/jnn/v1/Create with YouTube's request key, runs the interpreter, trades the snapshot for an
// integrity token at /api/jnn/v1/GenerateIT, builds a WebPoMinter from it, mints one token per video id, reuses the
// minter for the integrity token's lifetime, and reports failures. What it cannot prove: that Google's BotGuard
// accepts jsdom, or that YouTube accepts the tokens.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInProcessTokenProvider } from '../../src/infra/youtube/po-token/bgutils-provider.ts';

const REQUEST_KEY = 'O43z0dpjhgX20SCx4KAo';
const INTEGRITY = Buffer.from('integrity-token').toString('base64');
// The stand-in VM: its snapshot says whether a DOM was there; its minter binds the program, the integrity token and
// the content binding into the token, so the test can read back what went into each one.
const INTERPRETER = `
globalThis.standInBg = {
  a(program, setup) {
    const snapshot = (done, args) => {
      const output = args[2];
      output.push(async (integrity) => async (binding) =>
        new TextEncoder().encode(['pot', program, new TextDecoder().decode(integrity), new TextDecoder().decode(binding)].join('|')));
      done('snapshot|' + program + '|' + typeof document + '|' + typeof navigator.userAgent);
    };
    setup(snapshot, () => {}, () => {}, () => {});
    return [async () => 'sync'];
  },
};`;

let server: ReturnType<typeof createServer>;
let origin: string;
const seen: { path: string; body: unknown }[] = [];
let createStatus = 200;

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null') as unknown;
      seen.push({ path: req.url ?? '', body });
      if (req.url === '/') {
        res.setHeader('content-type', 'text/html');
        return res.end(
          '<!DOCTYPE html><html><body><script>ytcfg.set({"VISITOR_DATA":"CgtTdGFuZGluVmlz"});</script></body></html>',
        );
      }
      res.setHeader('content-type', 'application/json');
      if (req.url === '/api/jnn/v1/Create') {
        res.statusCode = createStatus;
        return res.end(
          JSON.stringify([
            [
              'message-id',
              [null, INTERPRETER],
              null,
              'interpreter-hash',
              'PROGRAM-1',
              'standInBg',
              null,
              'experiments',
            ],
          ]),
        );
      }
      if (req.url === '/api/jnn/v1/GenerateIT') return res.end(JSON.stringify([INTEGRITY, 3600, 300, null]));
      res.statusCode = 404;
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const decode = (token: string) => Buffer.from(token, 'base64url').toString('utf8');

describe('in-process minting (bgutils-js, jsdom, a worker thread)', { timeout: 60_000 }, () => {
  it('challenge, interpreter, snapshot, integrity token, minter: one token per video, one minter for both', async () => {
    const provider = createInProcessTokenProvider({ baseUrl: origin, timeoutMs: 20_000 });
    try {
      seen.length = 0;
      const first = await provider.mint('aaaaaaaaaaa');
      const second = await provider.mint('bbbbbbbbbbb');
      expect(decode(first.token)).toBe('pot|PROGRAM-1|integrity-token|aaaaaaaaaaa');
      expect(decode(second.token)).toBe('pot|PROGRAM-1|integrity-token|bbbbbbbbbbb');
      // The integrity token lives 3600 s, refreshed 300 s early.
      expect(first.expiresAt.getTime()).toBeGreaterThan(Date.now() + 3200_000);
      expect(first.expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + 3300_000);
      expect(first).toMatchObject({ path: 'standalone', visitorData: 'CgtTdGFuZGluVmlz' });
      expect(seen).toEqual([
        { path: '/', body: null },
        { path: '/api/jnn/v1/Create', body: [REQUEST_KEY] },
        // The snapshot was taken with a DOM and a navigator on the worker's globalThis.
        { path: '/api/jnn/v1/GenerateIT', body: [REQUEST_KEY, 'snapshot|PROGRAM-1|object|string'] },
      ]);
    } finally {
      await provider.close();
    }
  });

  it('a refused challenge is an error the caller sees (the web clients are then skipped), and the next mint tries again', async () => {
    const provider = createInProcessTokenProvider({ baseUrl: origin, timeoutMs: 20_000 });
    try {
      createStatus = 500;
      await expect(provider.mint('ccccccccccc')).rejects.toThrow(
        /in-process PO token minting failed: Failed to fetch challenge/,
      );
      createStatus = 200;
      expect(decode((await provider.mint('ccccccccccc')).token)).toBe('pot|PROGRAM-1|integrity-token|ccccccccccc');
    } finally {
      createStatus = 200;
      await provider.close();
    }
  });
});
