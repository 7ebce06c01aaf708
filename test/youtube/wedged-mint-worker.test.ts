// Review (availability): the in-process PO token minter runs the interpreter script the YouTube page (or its
// challenge) names, in a worker thread. The caller gave up after 2 x timeoutMs, but the worker was left running: one
// interpreter that never returns (a hostile or broken script, or parsing a hostile page) wedged the worker for good,
// and every later mint on this process queued behind it and timed out too: the web clients were lost until restart.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInProcessTokenProvider } from '../../src/infra/youtube/po-token/bgutils-provider.ts';

const INTEGRITY = Buffer.from('integrity-token').toString('base64');
// The stand-in VM of test/youtube/po-token-bgutils.test.ts.
const INTERPRETER = `
globalThis.standInBg = {
  a(program, setup) {
    const snapshot = (done, args) => {
      args[2].push(async () => async (binding) => new TextEncoder().encode('pot|' + new TextDecoder().decode(binding)));
      done('snapshot');
    };
    setup(snapshot, () => {}, () => {}, () => {});
    return [async () => 'sync'];
  },
};`;
const HANGS = 'for (;;) {}';

let server: ReturnType<typeof createServer>;
let origin: string;
let interpreter = HANGS;

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.url === '/') return res.end('<html><script>ytcfg.set({"VISITOR_DATA":"Cgt2aXNpdG9y"});</script></html>');
      res.setHeader('content-type', 'application/json');
      if (req.url === '/api/jnn/v1/Create')
        return res.end(JSON.stringify([['id', [null, interpreter], null, 'h', 'PROGRAM', 'standInBg', null, 'x']]));
      if (req.url === '/api/jnn/v1/GenerateIT') return res.end(JSON.stringify([INTEGRITY, 3600, 300, null]));
      res.statusCode = 404;
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('a minting worker that never returns', { timeout: 120_000 }, () => {
  it('is replaced after the timeout: the next mint is served', async () => {
    const provider = createInProcessTokenProvider({ baseUrl: origin, timeoutMs: 5_000 });
    try {
      await expect(provider.mint('aaaaaaaaaaa')).rejects.toThrow(/longer than/);
      interpreter = INTERPRETER;
      // A fresh worker loads jsdom first, which can itself pass the 5 s bound on a loaded machine: a few tries. A
      // wedged worker would fail every one of them (the old interpreter never returns).
      let next: Awaited<ReturnType<typeof provider.mint>> | undefined;
      for (let tries = 0; !next && tries < 4; tries++)
        next = await provider.mint('bbbbbbbbbbb').catch((err: Error) => {
          if (!/longer than/.test(err.message)) throw err;
          return undefined;
        });
      if (!next) throw new Error('no mint was served after the wedged worker');
      expect(Buffer.from(next.token, 'base64url').toString('utf8')).toBe('pot|bbbbbbbbbbb');
    } finally {
      await provider.close();
    }
  });
});
