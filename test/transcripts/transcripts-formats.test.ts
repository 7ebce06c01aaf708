// Transcript formats, the file download route, paging, and the text MCP tools answer an agent: the real service on
// REST, tRPC and MCP, with a fake video source (no YouTube) whose transcripts each test chooses.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VideoSource } from '../../src/domain/ports.ts';
import type { Segment, VideoInfo } from '../../src/domain/video/schemas.ts';
import { mcpClient, rest, trpcClient } from '../support/clients.ts';
import { fakeVideoSource, freshVideoId } from '../support/fake-video-source.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

/** The fake source, with a transcript and info overrides per video id. */
function videoSource() {
  const base = fakeVideoSource();
  const transcripts = new Map<string, Segment[]>();
  const infos = new Map<string, Partial<VideoInfo>>();
  const source: VideoSource = {
    ...base,
    async getVideo(videoId) {
      const v = await base.getVideo(videoId);
      return { ...v, info: { ...v.info, ...infos.get(videoId) } };
    },
    async fetchTranscript(track, signal) {
      base.calls.push(`transcript ${track.ref}`);
      return transcripts.get(track.ref.split(':')[1]!) ?? base.fetchTranscript(track, signal);
    },
  };
  return { source, calls: base.calls, transcripts, infos };
}

const fake = videoSource();
let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({}, { youtube: fake.source });
});
afterAll(() => s?.close());

const SAMPLE: Segment[] = [
  { start: 1, end: 2.5, text: 'Hello there.' },
  { start: 2.5, end: 4.25, text: 'Two lines\nof text' },
  { start: 3661.042, end: 3662, text: 'a --> b' },
];
const SAMPLE_SRT =
  '1\n00:00:01,000 --> 00:00:02,500\nHello there.\n\n2\n00:00:02,500 --> 00:00:04,250\nTwo lines\nof text\n\n3\n01:01:01,042 --> 01:01:02,000\na --> b\n';
const SAMPLE_VTT =
  'WEBVTT\n\n00:00:01.000 --> 00:00:02.500\nHello there.\n\n00:00:02.500 --> 00:00:04.250\nTwo lines\nof text\n\n01:01:01.042 --> 01:01:02.000\na -> b\n';
const SAMPLE_TEXT = 'Hello there.\nTwo lines\nof text\na --> b\n';

/** A fresh video whose transcript is `segments` (a cache miss the first time). */
function video(segments: Segment[], info: Partial<VideoInfo> = {}) {
  const id = freshVideoId();
  fake.transcripts.set(id, segments);
  fake.infos.set(id, info);
  return id;
}
const many = (n: number): Segment[] =>
  Array.from({ length: n }, (_, k) => ({ start: k * 2, end: k * 2 + 1.5, text: `line ${k}` }));
const balanceOf = async (key: string) => (await rest(s.url, 'GET', '/credits', { key })).json.balance as number;
const subtitles = (key: string, body: object) => rest(s.url, 'POST', '/subtitles', { key, body });
const download = (key: string | undefined, videoId: string, query: Record<string, string> = {}) =>
  rest(s.url, 'GET', `/videos/${videoId}/subtitles`, { key, query });

describe('a whole stored transcript, answered from its stored JSON text', () => {
  it('is the same answer on REST, tRPC (single and batched) and MCP, with the segments validated when stored', async () => {
    const { key } = await s.newKey({ credits: 10 });
    const tricky = [
      ...SAMPLE,
      { start: 5, end: 6, text: 'a quote " and "segments":[] inside, ünïcödé, 日本語, emoji 🎬, a backslash \\' },
      // A field the schema does not have: validation at store time drops it, as answers always did.
      { start: 7, end: 8, text: 'extra', speaker: 'A' } as Segment,
    ];
    const expected = tricky.map(({ start, end, text }) => ({ start, end, text }));
    const videoId = video(tricky);
    const miss = await subtitles(key, { videoId });
    expect(miss.json).toMatchObject({ cached: false, creditsCharged: 2, segments: expected });
    const hit = await subtitles(key, { videoId });
    expect(hit.status).toBe(200);
    expect(JSON.parse(hit.text)).toEqual({ ...miss.json, cached: true, creditsCharged: 0 });
    expect(hit.text).toBe(JSON.stringify(JSON.parse(hit.text))); // one compact JSON document
    expect(hit.headers.get('content-type')).toContain('application/json');

    const single = await trpcClient(s.url, key).subtitles.get.mutate({ videoId });
    expect(single).toEqual(hit.json);
    const batched = await fetch(`${s.url}/trpc/subtitles.get,subtitles.get?batch=1`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ 0: { videoId }, 1: { videoId, format: 'json' } }),
    });
    const both = (await batched.json()) as { result: { data: unknown } }[];
    expect(both.map((b) => b.result.data)).toEqual([hit.json, hit.json]);

    const mcp = await mcpClient(s.url, key);
    try {
      const r = await mcp.callTool({ name: 'get_video_subtitles', arguments: { videoId, limit: 5000 } });
      expect(r.structuredContent).toEqual(hit.json);
    } finally {
      await mcp.close();
    }
    // Pages and renderings still come from the segments.
    expect((await subtitles(key, { videoId, offset: 1, limit: 2 })).json.segments).toEqual(expected.slice(1, 3));
    expect((await subtitles(key, { videoId, format: 'text' })).json.content).toContain('日本語');
    expect(await balanceOf(key)).toBe(8);
  });
});

describe('formats', () => {
  it('POST /subtitles with format srt, vtt or text adds content; json (the default) does not', async () => {
    const { key } = await s.newKey({ credits: 10 });
    const videoId = video(SAMPLE);
    const json = await subtitles(key, { videoId });
    expect(json.status).toBe(200);
    expect(json.json).toMatchObject({
      format: 'json',
      offset: 0,
      nextOffset: null,
      segmentCount: 3,
      creditsCharged: 2,
      segments: SAMPLE,
    });
    expect(json.json).not.toHaveProperty('content');
    const srt = await subtitles(key, { videoId, format: 'srt' });
    expect(srt.json).toMatchObject({
      format: 'srt',
      content: SAMPLE_SRT,
      segments: SAMPLE,
      creditsCharged: 0,
      cached: true,
    });
    expect((await subtitles(key, { videoId, format: 'vtt' })).json.content).toBe(SAMPLE_VTT);
    expect((await subtitles(key, { videoId, format: 'text' })).json.content).toBe(SAMPLE_TEXT);
    expect((await subtitles(key, { videoId, format: 'ass' })).json.error.code).toBe('INVALID_REQUEST');
    expect(await balanceOf(key)).toBe(8);
  });

  it('the same content on tRPC and MCP', async () => {
    const { key } = await s.newKey({ credits: 10 });
    const videoId = video(SAMPLE);
    const t = await trpcClient(s.url, key).subtitles.get.mutate({ videoId, format: 'srt' });
    expect(t.status === 'succeeded' && t.content).toBe(SAMPLE_SRT);
    const client = await mcpClient(s.url, key);
    const result: any = await client.callTool({ name: 'get_video_subtitles', arguments: { videoId, format: 'vtt' } });
    await client.close();
    expect(result.structuredContent).toMatchObject({ format: 'vtt', content: SAMPLE_VTT, creditsCharged: 0 });
    // The text content carries the file under the header.
    expect(result.content[0].text).toContain(SAMPLE_VTT.trimEnd());
  });
});

describe('download route', () => {
  it('answers the file: type, charset, attachment filename, language, credits; the first download charges 2, repeats are free', async () => {
    const { key } = await s.newKey({ credits: 10 });
    const videoId = video(SAMPLE);
    const first = await download(key, videoId, { format: 'srt' });
    expect(first.status).toBe(200);
    expect(first.text).toBe(SAMPLE_SRT);
    expect(first.headers.get('content-type')).toBe('application/x-subrip; charset=utf-8');
    expect(first.headers.get('content-disposition')).toBe(`attachment; filename="${videoId}.en.srt"`);
    expect(first.headers.get('content-language')).toBe('en');
    expect(first.headers.get('x-credits-charged')).toBe('2');
    expect(first.headers.get('ratelimit-limit')).toBeTruthy();
    expect(first.headers.get('x-request-id')).toMatch(/^req_/);
    expect(await balanceOf(key)).toBe(8);

    const vtt = await download(key, videoId, { format: 'vtt', lang: 'en' });
    expect(vtt.text).toBe(SAMPLE_VTT);
    expect(vtt.headers.get('content-type')).toBe('text/vtt; charset=utf-8');
    expect(vtt.headers.get('content-disposition')).toBe(`attachment; filename="${videoId}.en.vtt"`);
    expect(vtt.headers.get('x-credits-charged')).toBe('0');
    const text = await download(key, videoId, { format: 'text' });
    expect(text.text).toBe(SAMPLE_TEXT);
    expect(text.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(text.headers.get('content-disposition')).toBe(`attachment; filename="${videoId}.en.txt"`);
    // Without format: SubRip.
    expect((await download(key, videoId)).text).toBe(SAMPLE_SRT);
    // The JSON call for the same transcript is free too: one transcript, one charge, whichever surface came first.
    expect((await subtitles(key, { videoId })).json.creditsCharged).toBe(0);
    expect(await balanceOf(key)).toBe(8);
    expect(fake.calls.filter((c) => c === `transcript track:${videoId}:en`)).toHaveLength(1);
  });

  it('a transcript fetched as JSON first downloads for free; a URL works in place of the id', async () => {
    const { key } = await s.newKey({ credits: 2 });
    const videoId = video(SAMPLE);
    expect((await subtitles(key, { videoId })).json.creditsCharged).toBe(2);
    const r = await download(key, encodeURIComponent(`https://youtu.be/${videoId}`), { format: 'vtt' });
    expect(r.status).toBe(200);
    expect(r.headers.get('x-credits-charged')).toBe('0');
    expect(r.text).toBe(SAMPLE_VTT);
  });

  it('auth, credits and errors are the procedure’s, as JSON', async () => {
    const videoId = video(SAMPLE);
    const anonymous = await download(undefined, videoId);
    expect(anonymous.status).toBe(401);
    expect(anonymous.json.error.code).toBe('INVALID_API_KEY');
    const bad = await download('sk_live_nope', videoId);
    expect(bad.status).toBe(401);
    // A bad key with a bad format is still a 401: nothing is judged before the key.
    expect((await download(undefined, videoId, { format: 'json' })).status).toBe(401);

    const { key } = await s.newKey(); // no credits
    const broke = await download(key, videoId);
    expect(broke.status).toBe(402);
    expect(broke.headers.get('content-type')).toBe('application/json');
    expect(broke.json).toEqual({ error: { code: 'INSUFFICIENT_CREDITS', message: expect.any(String) } });
    expect(fake.calls).not.toContain(`transcript track:${videoId}:en`);

    for (const format of ['json', 'docx']) {
      const r = await download(key, videoId, { format });
      expect(r.status).toBe(400);
      expect(r.json.error).toEqual({
        code: 'INVALID_REQUEST',
        message: 'format: must be text, srt, vtt (default srt)',
      });
    }
    expect((await download(key, 'abc')).json.error.code).toBe('INVALID_REQUEST');
    const noTrack = await download(key, videoId, { lang: 'ja' });
    expect(noTrack.status).toBe(422);
    expect(noTrack.json.error.code).toBe('NO_SUBTITLES');
  });

  it('counts against the rate limit and answers 429 with Retry-After', async () => {
    const { key } = await s.newKey({ credits: 10, rateLimit: 1 });
    const videoId = video(SAMPLE);
    expect((await download(key, videoId)).status).toBe(200);
    const limited = await download(key, videoId);
    expect(limited.status).toBe(429);
    expect(limited.json.error.code).toBe('RATE_LIMITED');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('is a documented GET route (405 for other methods)', async () => {
    const doc = await (await fetch(`${s.url}/api/v1/openapi.json`)).json();
    const op = doc.paths['/videos/{videoId}/subtitles'].get;
    expect(Object.keys(op.responses['200'].content)).toEqual([
      'text/plain; charset=utf-8',
      'application/x-subrip; charset=utf-8',
      'text/vtt; charset=utf-8',
    ]);
    expect(op.parameters.map((p: { name: string }) => p.name)).toEqual([
      'videoId',
      'lang',
      'format',
      'mode',
      'words',
      'chapters',
    ]);
    expect(op.responses['402'].content['application/json'].schema.$ref).toBe('#/components/schemas/Error');
    const post = await rest(s.url, 'POST', `/videos/${freshVideoId()}/subtitles`, { body: {} });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });
});

describe('paging', () => {
  it('offset and limit select segments; segmentCount stays the total; nextOffset leads to the end; pages are free', async () => {
    const { key } = await s.newKey({ credits: 10 });
    const all = many(25);
    const videoId = video(all);
    const first = await subtitles(key, { videoId, limit: 10 });
    expect(first.json).toMatchObject({ offset: 0, nextOffset: 10, segmentCount: 25, creditsCharged: 2, cached: false });
    expect(first.json.segments).toEqual(all.slice(0, 10));
    const seen: Segment[] = [...first.json.segments];
    let next = first.json.nextOffset;
    while (next !== null) {
      const page = await subtitles(key, { videoId, offset: next, limit: 10, format: 'srt' });
      expect(page.json).toMatchObject({ offset: next, segmentCount: 25, creditsCharged: 0 });
      // SubRip cue numbers continue from the page's offset.
      expect(page.json.content.startsWith(`${next + 1}\n`)).toBe(true);
      seen.push(...page.json.segments);
      next = page.json.nextOffset;
    }
    expect(seen).toEqual(all);
    const past = await subtitles(key, { videoId, offset: 40 });
    expect(past.json).toMatchObject({ offset: 40, nextOffset: null, segments: [], segmentCount: 25 });
    // REST answers everything by default.
    expect((await subtitles(key, { videoId })).json.segments).toHaveLength(25);
    for (const bad of [{ limit: 0 }, { limit: 5001 }, { offset: -1 }, { offset: 1.5 }]) {
      expect((await subtitles(key, { videoId, ...bad })).status).toBe(400);
    }
    expect(await balanceOf(key)).toBe(8);
  });

  it('MCP answers 300 segments a page by default, cites each line with its time, and says what remains', async () => {
    const { key } = await s.newKey({ credits: 10 });
    const all = many(650);
    const videoId = video(all, { duration: 1300 });
    const client = await mcpClient(s.url, key);
    const call = async (args: object) =>
      (await client.callTool({ name: 'get_video_subtitles', arguments: { videoId, ...args } })) as any;

    const first = await call({});
    expect(first.isError).toBeFalsy();
    expect(first.structuredContent).toMatchObject({ offset: 0, nextOffset: 300, segmentCount: 650, creditsCharged: 2 });
    expect(first.structuredContent.segments).toHaveLength(300);
    const lines: string[] = first.content[0].text.split('\n');
    expect(lines[0]).toBe(
      `Transcript of ${videoId} in en (manual captions, "English"), 21:39 long: segments 1–300 of 650; 2 credits charged.`,
    );
    expect(lines[1]).toBe('');
    expect(lines[2]).toBe('[0:00:00] line 0');
    expect(lines[3]).toBe('[0:00:02] line 1');
    expect(lines[301]).toBe('[0:09:58] line 299');
    expect(lines.at(-1)).toBe('350 segments remain: call again with offset=300 (same videoId and lang).');

    const second = await call({ offset: 300 });
    expect(second.structuredContent).toMatchObject({ offset: 300, nextOffset: 600, creditsCharged: 0, cached: true });
    expect(second.content[0].text).toMatch(
      /^Transcript of \S+ in en \(manual captions, "English"\), 21:39 long: segments 301–600 of 650; 0 credits charged \(stored, free\)\.\n\n\[0:10:00\] line 300\n/,
    );
    const last = await call({ offset: 600 });
    expect(last.structuredContent).toMatchObject({ offset: 600, nextOffset: null });
    expect(last.content[0].text).not.toContain('remain');
    expect(last.content[0].text.trimEnd().split('\n').at(-1)).toBe('[0:21:38] line 649');
    const bigger = await call({ limit: 5000 });
    expect(bigger.structuredContent).toMatchObject({ nextOffset: null });
    expect(bigger.structuredContent.segments).toHaveLength(650);
    await client.close();
    expect(await balanceOf(key)).toBe(8);
    // REST and tRPC default to the whole transcript.
    expect((await subtitles(key, { videoId })).json.segments).toHaveLength(650);
    const whole = await trpcClient(s.url, key).subtitles.get.mutate({ videoId });
    expect(whole.status === 'succeeded' && whole.segments).toHaveLength(650);
  });

  it('the tool description and the OpenAPI document (on `limit`) say how paging works', async () => {
    const { key } = await s.newKey();
    const client = await mcpClient(s.url, key);
    const tool = (await client.listTools()).tools.find((t) => t.name === 'get_video_subtitles')!;
    await client.close();
    expect(tool.description).toContain('pages of 300 segments');
    expect(tool.description).toContain('offset=nextOffset');
    expect(Object.keys(tool.inputSchema.properties!)).toEqual(expect.arrayContaining(['format', 'offset', 'limit']));
    const doc = await (await fetch(`${s.url}/api/v1/openapi.json`)).json();
    const body = doc.paths['/subtitles'].post.requestBody.content['application/json'].schema;
    expect(body.properties.limit.description).toContain('300 on MCP');
  });
});

describe('MCP text for video info and tracks', () => {
  it('get_video_info: readable lines with chapters and a truncated description; structured content in full', async () => {
    const { key } = await s.newKey();
    const description = `About this video. ${'More words. '.repeat(200)}`;
    const videoId = video(SAMPLE, {
      title: 'A talk about things',
      duration: 3725,
      channelName: 'Talks',
      channelId: 'UC123',
      viewCount: 1234567,
      publishDate: '2024-05-06',
      thumbnail: 'https://i.ytimg.com/vi/x/maxresdefault.jpg',
      description,
      chapters: [
        { title: 'Intro', start: 0 },
        { title: 'The middle', start: 75 },
        { title: 'The end', start: 3700 },
      ],
    });
    const client = await mcpClient(s.url, key);
    const result: any = await client.callTool({ name: 'get_video_info', arguments: { videoId } });
    await client.close();
    expect(result.structuredContent.description).toBe(description);
    const text: string = result.content[0].text;
    expect(text).toContain(
      [
        'Title: A talk about things',
        `Video: https://www.youtube.com/watch?v=${videoId}`,
        'Channel: Talks (UC123)',
        'Duration: 1:02:05 (3725 s)',
        'Published: 2024-05-06',
        'Views: 1,234,567',
        'Thumbnail: https://i.ytimg.com/vi/x/maxresdefault.jpg',
        '',
        'Chapters (3):',
        '[0:00] Intro',
        '[1:15] The middle',
        '[1:01:40] The end',
        '',
        'Description:',
        'About this video. More words.',
      ].join('\n'),
    );
    expect(text).toMatch(/… \(\d+ more characters: the full description is in structuredContent\)$/);
    expect(text.length).toBeLessThan(1600);
  });

  it('list_subtitle_tracks: one line per track', async () => {
    const { key } = await s.newKey();
    const client = await mcpClient(s.url, key);
    const videoId = freshVideoId();
    const result: any = await client.callTool({ name: 'list_subtitle_tracks', arguments: { videoId } });
    await client.close();
    expect(result.structuredContent.tracks).toHaveLength(1);
    expect(result.content[0].text).toBe(
      `1 subtitle track for ${videoId}; default en (use a code as lang for get_video_subtitles):\nen: English (manual, translatable, default)`,
    );
  });
});
