// Review (SSRF, code run): the page's challenge names the BotGuard interpreter script by URL, and the minting worker
// fetched that URL whatever its host (only www.youtube.com and www.google.com are moved onto a base URL) and ran what
// came back. A page naming http://127.0.0.1/... (or a metadata address) had the worker request it and run its body.
// Only https URLs on YouTube's and Google's hosts may be asked.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInProcessTokenProvider } from '../../src/infra/youtube/po-token/bgutils-provider.ts';

let youtube: ReturnType<typeof createServer>;
let internal: ReturnType<typeof createServer>;
let origin: string;
let internalOrigin: string;
const internalHits: string[] = [];

const listen = async (s: ReturnType<typeof createServer>) => {
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
};

beforeAll(async () => {
  internal = createServer((req, res) => {
    internalHits.push(req.url ?? '');
    res.end('globalThis.ranFromInternal = true;');
  });
  internalOrigin = await listen(internal);
  youtube = createServer((req, res) => {
    req.resume();
    const challenge = JSON.stringify({
      bgChallenge: {
        interpreterUrl: {
          privateDoNotAccessOrElseTrustedResourceUrlWrappedValue: `${internalOrigin}/latest/meta-data`,
        },
        program: 'PROGRAM',
        globalName: 'standInBg',
      },
    });
    res.setHeader('content-type', 'text/html');
    res.end(
      `<html><script>ytcfg.set({"VISITOR_DATA":"Cgt2aXNpdG9y"});window.ytAtN({R: '${challenge}', M: 'x',});</script></html>`,
    );
  });
  origin = await listen(youtube);
});
afterAll(async () => {
  await new Promise<void>((resolve) => youtube.close(() => resolve()));
  await new Promise<void>((resolve) => internal.close(() => resolve()));
});

describe("the page challenge's interpreter URL", { timeout: 60_000 }, () => {
  it('on another host is not fetched', async () => {
    const provider = createInProcessTokenProvider({ baseUrl: origin, timeoutMs: 10_000 });
    try {
      await expect(provider.mint('aaaaaaaaaaa')).rejects.toThrow();
      expect(internalHits).toEqual([]);
    } finally {
      await provider.close();
    }
  });
});
