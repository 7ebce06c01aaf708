// Kids and age-gated videos over recorded answers, through the real youtubei.js with an injected fetch: a client that
// answers "not available" (VISIONOS for a video made for kids) or the age gate is followed by WEB_EMBEDDED, then
// TV_DOWNGRADED, as yt-dlp does (yt-dlp/yt-dlp#17462); what still fails is classified as before; the operator's
// signed-in identity is asked for age-gated videos only, after both.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Sql } from '../../db/client.ts';
import { createEgressStore } from '../../src/infra/postgres/youtube-egress.ts';
import { youtubeCookieHeader, readYoutubeCookies } from '../../src/infra/youtube/cookies-file.ts';
import { createYoutubeSource, type YoutubeSourceOptions } from '../../src/infra/youtube/create-youtube-source.ts';
import { createTestDatabase } from '../support/databases.ts';
import { fakeYoutube, json, type FakeRoutes } from '../support/fake-youtube.ts';
import { readShared, sharedAvailable } from '../support/fixture-files.ts';

const BASE = 'http://127.0.0.1:1';
// Made for kids: ANDROID's recorded answer says "This action is turned off for content that is Made for Kids", and
// VISIONOS's, recorded the same evening, is UNPLAYABLE "This video is not available".
const KIDS = 'it3OtbTxQk0';
const AGE = 'Njp5uhTorCo';

const kidsRefused = () => json(readShared('player.visionos.unplayable-for-client.it3OtbTxQk0.json'));
// The recorded playable answer for the same video (ANDROID's, which reel_item_watch wraps as {"playerResponse": ...};
// /player answers it bare). Its adaptive formats are SABR-only (no URL): frames take itag 18.
const kidsPlayable = () =>
  json(
    (
      JSON.parse(readShared('reel-item-watch.android.captions.asr-only.it3OtbTxQk0.json')) as {
        playerResponse: unknown;
      }
    ).playerResponse,
  );
const ageGated = () => json(readShared('player.age-restricted.Njp5uhTorCo.json'));
const streamOk: FakeRoutes['other'] = (url) =>
  url.pathname.endsWith('/videoplayback') ? { status: 206, body: 'x' } : { status: 404, body: '' };

let db: { url: string; drop(): Promise<void> };
let sql: Sql;
beforeAll(async () => {
  db = await createTestDatabase();
  sql = connect(db.url, { max: 4 }).sql;
});
afterAll(async () => {
  await sql?.end({ timeout: 5 });
  await db?.drop();
});

function source(routes: FakeRoutes, opts: Partial<YoutubeSourceOptions> = {}) {
  const yt = fakeYoutube(routes);
  const store = createEgressStore(sql);
  const src = createYoutubeSource({
    baseUrl: BASE,
    fetch: yt.fetch,
    egress: { store, budgetPerHour: 1000, cooldownBaseSeconds: 0, cooldownMaxSeconds: 60 },
    ...opts,
  });
  return { yt, src, store };
}

const players = (calls: string[]) => calls.filter((c) => c.startsWith('PLAYER'));
const clientOf = (body: string) =>
  (JSON.parse(body) as { context: { client: { clientName: string; clientVersion: string; userAgent?: string } } })
    .context.client;

describe.skipIf(!sharedAvailable)('a video made for kids', () => {
  it('VISIONOS answers "not available": WEB_EMBEDDED is asked, then TV_DOWNGRADED, whose answer serves the frames', async () => {
    const { yt, src, store } = source({
      // WEB_EMBEDDED refuses it as VISIONOS did (the recorded client-specific refusal); TV plays it.
      player: (client, id) => (id === KIDS && client === 'TVHTML5' ? kidsPlayable() : kidsRefused()),
      other: streamOk,
    });
    const before = await store.counts(since());
    const frames = await src.getFrameSource(KIDS, 320);
    expect(players(yt.calls)).toEqual([
      `PLAYER VISIONOS ${KIDS}`,
      `PLAYER WEB_EMBEDDED_PLAYER ${KIDS}`,
      `PLAYER TVHTML5 ${KIDS}`,
    ]);
    // TV_DOWNGRADED: the TV client at yt-dlp's older version, which YouTube still answers with plain formats.
    expect(clientOf(yt.bodies[2]!)).toMatchObject({ clientName: 'TVHTML5', clientVersion: '5.20260707' });
    expect(yt.headers[2]!.get('x-youtube-client-version')).toBe('5.20260707');
    // WEB_EMBEDDED is asked without a PO token (none can be minted here), as yt-dlp asks web_embedded.
    expect(clientOf(yt.bodies[1]!).clientName).toBe('WEB_EMBEDDED_PLAYER');
    if (frames.kind !== 'stream') throw new Error('expected a stream');
    expect(new URL(frames.url).searchParams.get('itag')).toBe('18');
    expect(diff(before, await store.counts(since()))).toEqual({
      'VISIONOS/streams/direct/unplayable': 1,
      'WEB_EMBEDDED/streams/direct/unplayable': 1,
      'TV_DOWNGRADED/streams/direct/served': 1,
    });
  });

  it('WEB_EMBEDDED playing it ends the chain there, TV_DOWNGRADED is not asked', async () => {
    const { yt, src } = source({
      player: (client, id) => (id === KIDS && client === 'WEB_EMBEDDED_PLAYER' ? kidsPlayable() : kidsRefused()),
      other: streamOk,
    });
    await src.getFrameSource(KIDS, 320);
    expect(players(yt.calls)).toEqual([`PLAYER VISIONOS ${KIDS}`, `PLAYER WEB_EMBEDDED_PLAYER ${KIDS}`]);
  });

  it('the fallbacks are asked once per video, and when none plays it the chain goes on as before', async () => {
    const { yt, src } = source({ player: () => kidsRefused() }, { chains: { streams: ['VISIONOS', 'ANDROID'] } });
    await expect(src.getFrameSource(KIDS, 320)).rejects.toMatchObject({ code: 'VIDEO_UNPLAYABLE' });
    expect(players(yt.calls)).toEqual([
      `PLAYER VISIONOS ${KIDS}`,
      `PLAYER WEB_EMBEDDED_PLAYER ${KIDS}`,
      `PLAYER TVHTML5 ${KIDS}`,
      `PLAYER ANDROID ${KIDS}`,
    ]);
  });
});

describe.skipIf(!sharedAvailable)('the canary', () => {
  it('asks a client alone, without the fallbacks, so one serving in its place cannot hide that it broke', async () => {
    const { yt, src } = source(
      { player: (client) => (client === 'TVHTML5' ? kidsPlayable() : kidsRefused()) },
      { clients: ['VISIONOS'], gateFallbacks: false },
    );
    await expect(src.getFrameSource(KIDS, 320)).rejects.toMatchObject({ code: 'VIDEO_UNPLAYABLE' });
    expect(players(yt.calls)).toEqual([`PLAYER VISIONOS ${KIDS}`]);
  });
});

describe.skipIf(!sharedAvailable)('an age-gated video', () => {
  it('the age gate is followed by WEB_EMBEDDED and TV_DOWNGRADED only; when they meet it too, VIDEO_AGE_RESTRICTED', async () => {
    const { yt, src, store } = source({ player: () => ageGated() });
    const before = await store.counts(since());
    await expect(src.getVideo(AGE)).rejects.toMatchObject({
      code: 'VIDEO_AGE_RESTRICTED',
      message: expect.stringMatching(/inappropriate for some users/),
    });
    // The rest of the captions chain (VISIONOS, the watch page) would only meet the gate again: not asked.
    expect(yt.calls).toEqual([`PLAYER ANDROID ${AGE}`, `PLAYER WEB_EMBEDDED_PLAYER ${AGE}`, `PLAYER TVHTML5 ${AGE}`]);
    expect(diff(before, await store.counts(since()))).toEqual({
      'ANDROID/captions/direct/video': 1,
      'WEB_EMBEDDED/captions/direct/video': 1,
      'TV_DOWNGRADED/captions/direct/video': 1,
    });
    // No cookie on any of them: no signed-in identity is configured.
    expect(yt.headers.every((h) => !h.get('cookie'))).toBe(true);
  });

  it('a signed-in identity, when configured, is asked after both, and only for age-gated videos', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'subtext-cookies-'));
    const file = join(dir, 'cookies.txt');
    writeFileSync(
      file,
      [
        '# Netscape HTTP Cookie File',
        '.youtube.com\tTRUE\t/\tTRUE\t1893456000\tSAPISID\tsapisid-of-a-test-account',
        '#HttpOnly_.youtube.com\tTRUE\t/\tTRUE\t1893456000\tLOGIN_INFO\tlogin-info',
        '.google.com\tTRUE\t/\tTRUE\t1893456000\tNID\tnot-for-youtube',
        '',
      ].join('\n'),
    );
    const cookie = readYoutubeCookies(file);
    expect(cookie).toBe('SAPISID=sapisid-of-a-test-account; LOGIN_INFO=login-info');
    const { yt, src } = source(
      { player: (_client, id) => (id === AGE ? ageGated() : kidsPlayable()), other: streamOk },
      { ageGateCookie: cookie },
    );
    await expect(src.getVideo(AGE)).rejects.toMatchObject({ code: 'VIDEO_AGE_RESTRICTED' });
    expect(yt.calls).toEqual([
      `PLAYER ANDROID ${AGE}`,
      `PLAYER WEB_EMBEDDED_PLAYER ${AGE}`,
      `PLAYER TVHTML5 ${AGE}`,
      `PLAYER WEB_EMBEDDED_PLAYER ${AGE}`,
      `PLAYER TVHTML5 ${AGE}`,
    ]);
    const signed = yt.headers.map((h) => h.get('cookie') === cookie);
    expect(signed).toEqual([false, false, false, true, true]);
    // youtubei.js signs a cookie session's requests as a browser does (SAPISIDHASH from the SAPISID cookie).
    expect(yt.headers[3]!.get('authorization')).toMatch(/^SAPISIDHASH /);

    // A video that is not age-gated never sees the account.
    const sent = yt.headers.length;
    await src.getVideo(KIDS);
    expect(yt.headers.slice(sent).every((h) => !h.get('cookie'))).toBe(true);
  });

  it('a cookies file without YouTube cookies stops the start with a message', () => {
    expect(youtubeCookieHeader('.google.com\tTRUE\t/\tTRUE\t0\tNID\tx\n')).toBe('');
    const dir = mkdtempSync(join(tmpdir(), 'subtext-cookies-'));
    const file = join(dir, 'empty.txt');
    writeFileSync(file, '# Netscape HTTP Cookie File\n');
    expect(() => readYoutubeCookies(file)).toThrow(/no youtube.com cookies/);
    expect(() => readYoutubeCookies(join(dir, 'missing.txt'))).toThrow(/cannot read/);
  });
});

const since = () => new Date(Date.now() - 3_600_000);

/** What was added to the counters between two reads, as "client/purpose/identity/kind": n. */
function diff(
  before: { client: string; purpose: string; identity: string; kind: string; count: number }[],
  after: typeof before,
) {
  const key = (c: (typeof before)[number]) => `${c.client}/${c.purpose}/${c.identity}/${c.kind}`;
  const was = new Map(before.map((c) => [key(c), c.count]));
  const out: Record<string, number> = {};
  for (const c of after) {
    const d = c.count - (was.get(key(c)) ?? 0);
    if (d) out[key(c)] = d;
  }
  return out;
}
