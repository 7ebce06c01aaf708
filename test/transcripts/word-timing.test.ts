// Word-level timing from YouTube's auto-captions (`words=true`) through REST, tRPC, MCP and the VTT export.
// No recorded json3 with word offsets exists in the shared fixtures (their SOURCES.md says so): the auto-caption
// track below is built by hand in the documented shape of YouTube's ASR json3 (rolling events of one-word segs with
// `tOffsetMs` and `acAsrConf`, `aAppend` newline events), served for a video whose only track is auto-generated.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpClient, rest, trpcClient } from '../support/clients.ts';
import { json } from '../support/fake-youtube.ts';
import { readOwn } from '../support/fixture-files.ts';
import { startLoopbackYoutube, type LoopbackYoutube } from '../support/loopback-youtube.ts';
import { readTranscript } from '../support/stores.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { ID, recordedRoutes } from './recorded-youtube.ts';

const TIMED = 'WordsTimed1';

/** Our own player answer with only its auto-generated track, under another id. */
function asrOnlyPlayer(): string {
  const player = JSON.parse(readOwn('player.own.captions.json').replaceAll(ID.own, TIMED));
  const list = player.captions.playerCaptionsTracklistRenderer;
  list.captionTracks = list.captionTracks.filter((t: { kind?: string }) => t.kind === 'asr');
  list.audioTracks = [{ captionTrackIndices: [0], defaultCaptionTrackIndex: 0, hasDefaultTrack: true }];
  return JSON.stringify(player);
}

const seg = (utf8: string, tOffsetMs?: number) => ({
  utf8,
  ...(tOffsetMs === undefined ? {} : { tOffsetMs }),
  acAsrConf: 0,
});
const ASR_TRACK = {
  wireMagic: 'pb3',
  pens: [{}],
  wsWinStyles: [{}, { mhModeHint: 2, juJustifCode: 0, sdScrollDir: 3 }],
  wpWinPositions: [{}, { apPoint: 6, ahHorPos: 20, avVerPos: 100, rcRows: 2, ccCols: 40 }],
  events: [
    { tStartMs: 0, dDurationMs: 30000, id: 1, wpWinPosId: 1, wsWinStyleId: 1 },
    {
      tStartMs: 1000,
      dDurationMs: 4200,
      wWinId: 1,
      segs: [seg('hello'), seg(' and', 240), seg(' welcome', 900), seg(' back', 1500)],
    },
    { tStartMs: 3100, dDurationMs: 2100, wWinId: 1, aAppend: 1, segs: [{ utf8: '\n' }] },
    {
      tStartMs: 3110,
      dDurationMs: 5000,
      wWinId: 1,
      segs: [seg('today'), seg(' we', 420), seg(' talk', 610), seg(' about', 1000), seg(' words', 1330)],
    },
    { tStartMs: 6200, dDurationMs: 1900, wWinId: 1, aAppend: 1, segs: [{ utf8: '\n' }] },
    { tStartMs: 6210, dDurationMs: 2500, wWinId: 1, segs: [seg('goodbye'), seg(' now', 700)] },
  ],
};

let yt: LoopbackYoutube;
let s: TestServer;
beforeAll(async () => {
  const recorded = recordedRoutes();
  yt = await startLoopbackYoutube({
    ...recorded,
    player: (client, videoId) => (videoId === TIMED ? json(asrOnlyPlayer()) : recorded.player!(client, videoId)),
    timedtext: (url) => (url.searchParams.get('v') === TIMED ? json(ASR_TRACK) : recorded.timedtext!(url)),
  });
  s = await startTestServer({ YOUTUBE_BASE_URL: yt.origin });
});
afterAll(async () => {
  await s?.close();
  await yt?.close();
});

type Word = { start: number; end: number; text: string };
type Seg = { start: number; end: number; text: string; words?: Word[] | null };

/** Every segment has words, each inside its segment, in order, spelling the segment's text. */
function expectWordsInside(segments: Seg[]) {
  expect(segments.length).toBeGreaterThan(0);
  for (const x of segments) {
    expect(x.words?.length, x.text).toBeGreaterThan(0);
    expect(x.words!.map((w) => w.text).join(' ')).toBe(x.text);
    let last = x.start;
    for (const w of x.words!) {
      expect(w.start).toBeGreaterThanOrEqual(last);
      expect(w.end).toBeGreaterThanOrEqual(w.start);
      expect(w.end).toBeLessThanOrEqual(x.end);
      last = w.start;
    }
  }
}

describe('word timing from auto-captions', () => {
  it('REST: words=true gives each segment its words; the same call without it answers the stored segments as ever', async () => {
    const { key } = await s.newKey({ credits: 10 });
    const r = await rest(s.url, 'POST', '/subtitles', { key, body: { videoId: TIMED, words: true } });
    expect(r.status, r.text).toBe(200);
    expect(r.json).toMatchObject({
      source: 'auto-captions',
      creditsCharged: 2,
      wordTiming: { available: true, note: expect.stringMatching(/auto-captions/) },
    });
    expect(r.json.segments.map((x: Seg) => x.text)).toEqual([
      'hello and welcome back',
      'today we talk about words',
      'goodbye now',
    ]);
    expectWordsInside(r.json.segments);
    expect(r.json.segments[0].words).toEqual([
      { start: 1, end: 1.24, text: 'hello' },
      { start: 1.24, end: 1.9, text: 'and' },
      { start: 1.9, end: 2.5, text: 'welcome' },
      { start: 2.5, end: 3.11, text: 'back' },
    ]);

    // Free options of the same call: the stored transcript, no second charge, and no words unless asked.
    const plain = await rest(s.url, 'POST', '/subtitles', { key, body: { videoId: TIMED } });
    expect(plain.json).toMatchObject({ cached: true, creditsCharged: 0 });
    expect(plain.json.wordTiming).toBeUndefined();
    expect(plain.json.segments[0]).toEqual({ start: 1, end: 3.11, text: 'hello and welcome back' });
    const paged = await rest(s.url, 'POST', '/subtitles', {
      key,
      body: { videoId: TIMED, words: true, offset: 1, limit: 1 },
    });
    expect(paged.json.segments).toEqual([r.json.segments[1]]);
    expect(paged.json.creditsCharged).toBe(0);
  });

  it('the stored form: the row in PostgreSQL keeps the words beside the segments, and answers read from it', async () => {
    const { key } = await s.newKey({ credits: 10 });
    const fresh = await rest(s.url, 'POST', '/subtitles', { key, body: { videoId: TIMED, words: true } });
    const row = await readTranscript(s.deps.sql, TIMED, 'en', 'asr');
    expect(JSON.parse(row!.body)[0]).toEqual({ start: 1, end: 3.11, text: 'hello and welcome back' });
    expect(JSON.parse(row!.words!)).toEqual(fresh.json.segments.map((x: Seg) => x.words));
    // The in-memory copy refilled from the row (as after a restart or an eviction) answers the same words.
    s.deps.hotCache.setTranscript(TIMED, row!);
    const again = await rest(s.url, 'POST', '/subtitles', { key, body: { videoId: TIMED, words: true } });
    expect(again.json.segments).toEqual(fresh.json.segments);
  });

  it('tRPC and MCP answer the same words', async () => {
    const { key } = await s.newKey({ credits: 10 });
    const viaRest = await rest(s.url, 'POST', '/subtitles', { key, body: { videoId: TIMED, words: true } });
    const viaTrpc = await trpcClient(s.url, key).subtitles.get.mutate({ videoId: TIMED, words: true });
    expect(viaTrpc.status === 'succeeded' && viaTrpc.segments).toEqual(viaRest.json.segments);
    expect(viaTrpc.status === 'succeeded' && viaTrpc.wordTiming?.available).toBe(true);

    const client = await mcpClient(s.url, key);
    const tool = (await client.callTool({
      name: 'get_video_subtitles',
      arguments: { videoId: TIMED, words: true },
    })) as unknown as { structuredContent: { segments: Seg[] }; content: { text: string }[] };
    await client.close();
    expect(tool.structuredContent.segments).toEqual(viaRest.json.segments);
    expect(tool.content[0]!.text).toMatch(/Word timings from YouTube’s auto-captions.*segments\[\]\.words/);
  });

  it('VTT export: word cues as YouTube writes them, in the answer and in the downloaded file', async () => {
    const { key } = await s.newKey({ credits: 10 });
    const r = await rest(s.url, 'POST', '/subtitles', { key, body: { videoId: TIMED, words: true, format: 'vtt' } });
    expect(r.json.content).toContain(
      '00:00:01.000 --> 00:00:03.110\nhello<00:00:01.240><c> and</c><00:00:01.900><c> welcome</c><00:00:02.500><c> back</c>\n',
    );
    const file = await fetch(`${s.url}/api/v1/videos/${TIMED}/subtitles?format=vtt&words=true`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('text/vtt; charset=utf-8');
    expect(await file.text()).toBe(r.json.content);
    // Without words the file is the plain cues it always was.
    const plain = await fetch(`${s.url}/api/v1/videos/${TIMED}/subtitles?format=vtt`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(await plain.text()).toContain('00:00:01.000 --> 00:00:03.110\nhello and welcome back\n');
  });

  it('manual captions have none: words is null on every segment, and the answer says why', async () => {
    const { key } = await s.newKey({ credits: 10 });
    const r = await rest(s.url, 'POST', '/subtitles', { key, body: { videoId: ID.own, words: true } });
    expect(r.status, r.text).toBe(200);
    expect(r.json.source).toBe('manual');
    expect(r.json.wordTiming).toEqual({ available: false, note: expect.stringMatching(/written by people/) });
    expect(r.json.segments.every((x: Seg) => x.words === null)).toBe(true);
  });

  it('a words value that is not a boolean is INVALID_REQUEST on every surface', async () => {
    const { key } = await s.newKey({ credits: 10 });
    const r = await rest(s.url, 'POST', '/subtitles', { key, body: { videoId: TIMED, words: 'yes' } });
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe('INVALID_REQUEST');
    const file = await fetch(`${s.url}/api/v1/videos/${TIMED}/subtitles?format=vtt&words=maybe`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(file.status).toBe(400);
    expect(((await file.json()) as { error: { code: string } }).error.code).toBe('INVALID_REQUEST');
  });
});
