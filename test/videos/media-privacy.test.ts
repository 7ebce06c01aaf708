// A direct media URL is often a private link (?token=, presigned), so what is made from it is its giver's alone:
// another account cannot read its info, URL, title, transcript, frames or articles by id, nor find its articles in
// search, on REST, tRPC or MCP; the same URL given by another account is another id, extracted and paid for again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mediaIdOf } from '../../src/domain/video/video-ref.ts';
import { mcpClient, mcpError, rest, trpcClient } from '../support/clients.ts';
import { cachedTestVideo } from '../support/make-video.ts';
import { storeArticle, storeTranscript } from '../support/stores.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { startVideoServer, type VideoServer } from '../support/video-server.ts';

let s: TestServer;
let files: VideoServer;
let url: string;
let owner: { key: string; accountId: string };
let other: { key: string; accountId: string };
let mediaId: string;
let articleId: string;

beforeAll(async () => {
  const video = await cachedTestVideo({ seconds: 3 });
  files = await startVideoServer({ '/private.mp4': { file: video, contentType: 'video/mp4' } });
  s = await startTestServer({ MEDIA_ALLOWED_NETWORKS: '127.0.0.1' });
  owner = await s.newKey({ credits: 10 });
  other = await s.newKey({ credits: 10 });
  url = `${files.url('/private.mp4')}?token=owner-secret-123`;
  const r = await rest(s.url, 'GET', `/videos/${encodeURIComponent(url)}`, { key: owner.key });
  expect(r.status).toBe(200);
  mediaId = r.json.videoId;
  await storeTranscript(s.deps.sql, mediaId, {
    lang: 'en',
    origin: 'speech',
    trackName: 'speech',
    segments: [{ start: 0, end: 2, text: 'the confidential board minutes' }],
  });
  articleId = (
    await storeArticle(s.deps.sql, {
      videoId: mediaId,
      lang: 'en',
      length: 'medium',
      sourceLang: 'en',
      title: 'Zanzibar quarterly board minutes',
      summary: 'Confidential.',
      sections: [{ heading: 'Minutes', start: 0, end: 2, text: 'the confidential board minutes' }],
      keyPoints: ['confidential'],
      tags: ['board'],
      category: 'business',
      generator: { kind: 'extractive' },
    })
  ).id;
}, 60_000);
afterAll(async () => {
  await s?.close();
  await files?.close();
});

describe('a media id is its giver’s', () => {
  it('is derived from the account and the URL: the owner reads its info, URL included', async () => {
    expect(mediaId).toBe(mediaIdOf(url, owner.accountId));
    const r = await rest(s.url, 'GET', `/videos/${mediaId}`, { key: owner.key });
    expect(r.status).toBe(200);
    expect(r.json.media.url).toBe(url);
  });

  it('another account reading it by id gets what an unknown id gets, on REST, tRPC and MCP', async () => {
    const unknown = 'media-0123456789abcdef01234567';
    const asUnknown = (body: { error: { code: string; message: string } }, id: string) => ({
      ...body.error,
      message: body.error.message.replace(id, '<id>'),
    });
    const theirs = await rest(s.url, 'GET', `/videos/${mediaId}`, { key: other.key });
    const none = await rest(s.url, 'GET', `/videos/${unknown}`, { key: other.key });
    expect(theirs.status).toBe(404);
    expect(asUnknown(theirs.json, mediaId)).toEqual(asUnknown(none.json, unknown));
    expect(JSON.stringify(theirs.json)).not.toContain('owner-secret');
    await expect(trpcClient(s.url, other.key).videos.info.query({ videoId: mediaId })).rejects.toMatchObject({
      data: { code: 'VIDEO_NOT_FOUND' },
    });
    const client = await mcpClient(s.url, other.key);
    const tool = await client.callTool({ name: 'get_video_info', arguments: { videoId: mediaId } });
    expect(mcpError(tool)?.code).toBe('VIDEO_NOT_FOUND');
    const tracks = await rest(s.url, 'GET', `/videos/${mediaId}/tracks`, { key: other.key });
    expect(tracks.status).toBe(404);
    await client.close();
  });

  it('nor its transcript, frames, a summary or a translation (REST, tRPC, MCP); nothing is charged', async () => {
    const subtitles = await rest(s.url, 'POST', '/subtitles', { key: other.key, body: { videoId: mediaId } });
    expect([subtitles.status, subtitles.json.error?.code]).toEqual([404, 'VIDEO_NOT_FOUND']);
    expect(JSON.stringify(subtitles.json)).not.toContain('confidential');
    await expect(trpcClient(s.url, other.key).subtitles.get.mutate({ videoId: mediaId })).rejects.toMatchObject({
      data: { code: 'VIDEO_NOT_FOUND' },
    });
    const client = await mcpClient(s.url, other.key);
    const tool = await client.callTool({ name: 'get_video_subtitles', arguments: { videoId: mediaId } });
    expect(mcpError(tool)?.code).toBe('VIDEO_NOT_FOUND');
    await client.close();
    const frames = await rest(s.url, 'POST', '/frames', { key: other.key, body: { videoId: mediaId, t: 1 } });
    expect([frames.status, frames.json.error?.code]).toEqual([404, 'VIDEO_NOT_FOUND']);
    const summary = await rest(s.url, 'POST', '/summaries', {
      key: other.key,
      body: { videoId: mediaId, lang: 'en' },
    });
    expect([summary.status, summary.json.error?.code]).toEqual([404, 'VIDEO_NOT_FOUND']);
    const translation = await rest(s.url, 'POST', '/transcripts/translate', {
      key: other.key,
      body: { videoId: mediaId, sourceLang: 'en', targetLang: 'de' },
    });
    expect([translation.status, translation.json.error?.code]).toEqual([404, 'VIDEO_NOT_FOUND']);
    const [charged] = await s.deps.sql<{ n: number }[]>`
      select count(*)::int as n from credit_ledger where account_id = ${other.accountId} and kind = 'charge'`;
    expect(charged!.n).toBe(0);
  });

  it('the owner still reads its stored transcript and frames', async () => {
    const subtitles = await rest(s.url, 'POST', '/subtitles', { key: owner.key, body: { videoId: mediaId } });
    expect([subtitles.status, subtitles.json.error]).toEqual([200, undefined]);
    expect(subtitles.json.segments[0].text).toBe('the confidential board minutes');
    const frames = await rest(s.url, 'POST', '/frames', { key: owner.key, body: { videoId: mediaId, t: 1 } });
    expect([frames.status, frames.json.error]).toEqual([200, undefined]);
    // Its signed URL serves the image, as for a YouTube frame; a tampered one is refused whether or not it exists.
    const img = await fetch(frames.json.frames[0].url);
    expect([img.status, img.headers.get('content-type')]).toEqual([200, 'image/jpeg']);
    const forged = await fetch(frames.json.frames[0].url.replace(/sig=[^&]+/, 'sig=AAAA'));
    expect(forged.status).toBe(403);
  });

  it('nor its frame image by id', async () => {
    const theirs = await fetch(`${s.url}/api/v1/videos/${mediaId}/frame?t=1`, {
      headers: { authorization: `Bearer ${other.key}` },
    });
    expect(theirs.status).toBe(404);
    expect(((await theirs.json()) as { error: { code: string } }).error.code).toBe('VIDEO_NOT_FOUND');
    const own = await fetch(`${s.url}/api/v1/videos/${mediaId}/frame?t=1`, {
      headers: { authorization: `Bearer ${owner.key}` },
    });
    expect([own.status, own.headers.get('content-type')]).toEqual([200, 'image/jpeg']);
  });

  it('its articles are not in search, and only the owner reads one by id', async () => {
    for (const key of [owner.key, other.key]) {
      const found = await rest(s.url, 'GET', '/articles?query=zanzibar', { key });
      expect(found.json.total).toBe(0);
      const newest = await rest(s.url, 'GET', '/articles', { key });
      expect(JSON.stringify(newest.json)).not.toContain(mediaId);
    }
    expect((await rest(s.url, 'GET', `/articles/${articleId}`, { key: owner.key })).status).toBe(200);
    const theirs = await rest(s.url, 'GET', `/articles/${articleId}`, { key: other.key });
    expect([theirs.status, theirs.json.error.code]).toEqual([404, 'ARTICLE_NOT_FOUND']);
    const client = await mcpClient(s.url, other.key);
    const tool = await client.callTool({ name: 'get_article', arguments: { id: articleId } });
    expect(mcpError(tool)?.code).toBe('ARTICLE_NOT_FOUND');
    await client.close();
  });

  it('the same URL given by another account is another id, with nothing of the owner’s', async () => {
    const r = await rest(s.url, 'GET', `/videos/${encodeURIComponent(url)}`, { key: other.key });
    expect(r.status).toBe(200);
    expect(r.json.videoId).toBe(mediaIdOf(url, other.accountId));
    expect(r.json.videoId).not.toBe(mediaId);
    const subtitles = await rest(s.url, 'POST', '/subtitles', {
      key: other.key,
      body: { url, mode: 'native' },
    });
    expect(subtitles.json.error?.code).toBe('NO_SUBTITLES');
  });
});
