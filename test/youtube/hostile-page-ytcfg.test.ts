// Review (unbounded work): readYtcfg scanned from every `ytcfg.set({` of the page to its closing brace. A page of
// unclosed calls made each scan run to the end of the page: quadratic, 220 KB of them took 20 s of the minting
// worker, and a page of a megabyte hours (the minter then held every mint; see wedged-mint-worker.test.ts). A real
// page has about five calls: reading a bounded number of them keeps the work linear in the page.
import { describe, expect, it } from 'vitest';
import { readPageChallenge, readYtcfg } from '../../src/infra/youtube/po-token/page-challenge.ts';

describe('a hostile page', () => {
  // The test's own timeout is the bound: before the fix this page took far longer (quadratic in 1.1 MB).
  it('of 100,000 unclosed ytcfg.set calls is read in linear work', { timeout: 20_000 }, () => {
    const html = `<script>ytcfg.set({"VISITOR_DATA":"Cgt2aXNpdG9y"});</script>${'ytcfg.set({'.repeat(100_000)}`;
    expect(readYtcfg(html)).toEqual({ VISITOR_DATA: 'Cgt2aXNpdG9y' });
    expect(readPageChallenge(`${'window.ytAtN({'.repeat(100_000)}`)).toBeUndefined();
  });
});
