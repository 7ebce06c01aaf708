// MCP resources through the SDK's real client on every revision, with two accounts: tool results link the resources
// they made; resources/list pages what the account itself obtained (never another's, never a media id it did not
// give); templates read stored transcripts, translations, articles and frames, free when stored, at the tool's price
// otherwise; another account's media id reads as not found, like an id nobody named.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESOURCES_PAGE } from '../../src/bridges/mcp/resources.ts';
import { withDirectMedia } from '../../src/infra/media/with-direct-media.ts';
import { cachedTestVideo } from '../support/make-video.ts';
import { fakeVideoSource, freshVideoId } from '../support/fake-video-source.ts';
import { rest } from '../support/clients.ts';
import { storeArticle, storeTranscript } from '../support/stores.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { startVideoServer, type VideoServer } from '../support/video-server.ts';
import { clientAt, rejection, REVISIONS } from './mcp-clients.ts';

let s: TestServer;
let files: VideoServer;
let owner: { key: string; accountId: string };
let other: { key: string; accountId: string };
let mediaId: string;
let articleId: string;
const media = fakeVideoSource();

beforeAll(async () => {
  const video = await cachedTestVideo({ seconds: 3 });
  files = await startVideoServer({ '/private.mp4': { file: video, contentType: 'video/mp4' } });
  s = await startTestServer({ MEDIA_ALLOWED_NETWORKS: '127.0.0.1' });
  // YouTube ids from the fake source (no network), media URLs as the service reads them (ffmpeg through the gateway).
  s.deps.youtube = withDirectMedia(media, { prober: s.deps.media, videos: s.deps.videos });
  owner = await s.newKey({ credits: 50 });
  other = await s.newKey({ credits: 50 });
  const url = `${files.url('/private.mp4')}?token=owner-secret`;
  const r = await rest(s.url, 'GET', `/videos/${encodeURIComponent(url)}`, { key: owner.key });
  expect(r.status, r.text).toBe(200);
  mediaId = r.json.videoId;
  await storeTranscript(s.deps.sql, mediaId, {
    lang: 'en',
    origin: 'speech',
    trackName: 'speech',
    segments: [{ start: 0, end: 2, text: 'the confidential board minutes' }],
  });
  articleId = (
    await storeArticle(s.deps.sql, {
      videoId: 'dQw4w9WgXcQ',
      lang: 'en',
      length: 'medium',
      sourceLang: 'en',
      title: 'Never gonna give you up',
      summary: 'A song.',
      sections: [{ heading: 'Chorus', start: 0, end: 2, text: 'never gonna give you up' }],
      keyPoints: ['commitment'],
      tags: ['music'],
      category: 'music',
      generator: { kind: 'extractive' },
    })
  ).id;
}, 60_000);
afterAll(async () => {
  await s?.close();
  await files?.close();
});

const balance = async (key: string) => (await rest(s.url, 'GET', '/credits', { key })).json.balance as number;

describe.each(REVISIONS)('resources on %s', (revision) => {
  it('a tool result links the transcript it made; the owner lists and reads it free, the other account does not list it', async () => {
    const videoId = freshVideoId();
    const a = await clientAt(s.url, owner.key, revision);
    const b = await clientAt(s.url, other.key, revision);
    const r: any = await a.callTool({ name: 'get_video_subtitles', arguments: { videoId } });
    expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
    const link = r.content.find((c: any) => c.type === 'resource_link');
    expect(link).toMatchObject({ uri: `subtext://videos/${videoId}/transcript?lang=en`, mimeType: 'text/plain' });

    const listed = (await a.listResources()).resources.map((x) => x.uri);
    expect(listed).toContain(link.uri);
    expect((await b.listResources()).resources.map((x) => x.uri)).not.toContain(link.uri);

    const before = await balance(owner.key);
    const read = await a.readResource({ uri: link.uri });
    expect(read.contents[0]).toMatchObject({ uri: link.uri, mimeType: 'text/plain' });
    expect((read.contents[0] as any).text).toBe('[0:00:00] hello\n[0:00:02] world');
    expect(await balance(owner.key)).toBe(before);
    await a.close();
    await b.close();
  });

  it('a transcript not stored yet is extracted on read and costs what get_video_subtitles costs', async () => {
    const videoId = freshVideoId();
    const b = await clientAt(s.url, other.key, revision);
    const before = await balance(other.key);
    const read = await b.readResource({ uri: `subtext://videos/${videoId}/transcript` });
    expect((read.contents[0] as any).text).toContain('[0:00:00] hello');
    expect(await balance(other.key)).toBe(before - 2);
    // Now stored, and in the reader's own list.
    expect((await b.listResources()).resources.map((x) => x.uri)).toContain(
      `subtext://videos/${videoId}/transcript?lang=en`,
    );
    await b.close();
  });

  it('a media id is its giver’s: the owner reads its transcript and frame, the other account gets not found', async () => {
    const a = await clientAt(s.url, owner.key, revision);
    const b = await clientAt(s.url, other.key, revision);
    const uri = `subtext://videos/${mediaId}/transcript`;
    expect((await a.readResource({ uri })).contents[0]).toMatchObject({
      text: '[0:00:00] the confidential board minutes',
    });
    const theirs = await rejection(b.readResource({ uri }));
    const nobody = await rejection(
      b.readResource({ uri: 'subtext://videos/media-0123456789abcdef01234567/transcript' }),
    );
    expect(theirs.code).toBe(-32602);
    expect(theirs.data?.uri).toBe(uri);
    expect(theirs.message.replace(mediaId, 'ID')).toBe(nobody.message.replace('media-0123456789abcdef01234567', 'ID'));

    const frame = `subtext://frames/${mediaId}/1`;
    const image = await a.readResource({ uri: frame });
    expect(image.contents[0]).toMatchObject({ uri: frame, mimeType: 'image/jpeg' });
    expect(Buffer.from((image.contents[0] as any).blob, 'base64').subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    expect((await rejection(b.readResource({ uri: frame }))).code).toBe(-32602);
    for (const client of [a, b]) {
      const uris = (await client.listResources()).resources.map((x) => x.uri);
      if (client === a) expect(uris).toContain(frame);
      else expect(uris.filter((u) => u.includes(mediaId))).toEqual([]);
    }
    await a.close();
    await b.close();
  });

  it('articles read as markdown, free; get_article links its article', async () => {
    const a = await clientAt(s.url, owner.key, revision);
    const r: any = await a.callTool({ name: 'get_article', arguments: { id: articleId } });
    const link = r.content.find((c: any) => c.type === 'resource_link');
    expect(link).toMatchObject({ uri: `subtext://articles/${articleId}`, mimeType: 'text/markdown' });
    const read = await a.readResource({ uri: link.uri });
    expect((read.contents[0] as any).text).toContain('Never gonna give you up');
    const missing = await rejection(a.readResource({ uri: 'subtext://articles/art_nosuch' }));
    expect(missing.code).toBe(-32602);
    await a.close();
  });

  it('templates say what a read costs; an unknown URI is -32602 with the URI', async () => {
    const a = await clientAt(s.url, owner.key, revision);
    const { resourceTemplates } = await a.listResourceTemplates();
    const byName = Object.fromEntries(resourceTemplates.map((t) => [t.name, t]));
    expect(byName.transcript!.uriTemplate).toBe('subtext://videos/{videoId}/transcript{?lang}');
    expect(byName.transcript!.description).toMatch(/Free when stored.*2 credits/);
    expect(byName.article!.uriTemplate).toBe('subtext://articles/{id}');
    expect(byName.frame!.uriTemplate).toBe('subtext://frames/{videoId}/{t}');
    expect(byName.frame!.description).toMatch(/1 credit/);
    const unknown = await rejection(a.readResource({ uri: 'subtext://nothing/here' }));
    expect([unknown.code, unknown.data?.uri]).toEqual([-32602, 'subtext://nothing/here']);
    await a.close();
  });
});

describe('resources/list pages', () => {
  it('pages an account’s resources newest first with nextCursor; a cursor it did not give is -32602', async () => {
    const { key, accountId } = await s.newKey({ credits: 1 });
    const uris = Array.from({ length: RESOURCES_PAGE + 5 }, (_, i) => `subtext://articles/art_page${i}`);
    for (const uri of uris)
      await s.deps.resourceLibrary.note(accountId, [{ uri, name: uri, title: uri, mimeType: 'text/markdown' }]);
    const newestFirst = [...uris].reverse();
    // One page at a time, as a client walks them.
    const page = async (cursor?: string) => {
      const r = await fetch(`${s.url}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${key}`,
          'mcp-protocol-version': '2025-11-25',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'resources/list', params: cursor ? { cursor } : {} }),
      });
      return (await r.json()) as any;
    };
    const first = await page();
    // The MCP App's viewer, the same for everyone, comes first.
    expect(first.result.resources.map((r: any) => r.uri)).toEqual([
      'ui://subtext/viewer.html',
      ...newestFirst.slice(0, RESOURCES_PAGE),
    ]);
    const second = await page(first.result.nextCursor);
    expect(second.result.resources.map((r: any) => r.uri)).toEqual(newestFirst.slice(RESOURCES_PAGE));
    expect(second.result.nextCursor).toBeUndefined();
    for (const revision of REVISIONS) {
      const a = await clientAt(s.url, key, revision);
      // The SDK's client walks every page itself.
      expect((await a.listResources()).resources.map((r) => r.uri)).toEqual([
        'ui://subtext/viewer.html',
        ...newestFirst,
      ]);
      const next = await a.listResources({ cursor: first.result.nextCursor });
      expect(next.resources.map((r) => r.uri)).toEqual(newestFirst.slice(RESOURCES_PAGE));
      for (const cursor of ['nope', Buffer.from('["x","y"]').toString('base64url'), '']) {
        expect((await rejection(a.listResources({ cursor }))).code, cursor).toBe(-32602);
      }
      await a.close();
    }
  });
});
