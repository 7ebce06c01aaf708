// Playlists, channels and searches end to end: REST, tRPC and MCP against the real service, with YouTube's browse
// and search answers replayed from the recorded fixtures (test/support/youtube-browse-replay.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpClient, mcpError, rest, trpcClient } from '../support/clients.ts';
import { browseAvailable, BROWSE } from '../support/youtube-browse-replay.ts';
import { balanceOf } from '../transcripts/recorded-youtube.ts';
import { isInnertube, startBrowseHarness, type BrowseHarness } from './browse-harness.ts';

let h: BrowseHarness;
beforeAll(async () => {
  if (browseAvailable) h = await startBrowseHarness();
});
afterAll(() => h?.close());

describe.skipIf(!browseAvailable)('listing', () => {
  it('REST: a playlist page by page to the end, 1 credit a page, a cached page free', async () => {
    const { key } = await h.s.newKey({ credits: 10 });
    const first = await rest(h.s.url, 'GET', '/playlists/videos', {
      key,
      query: { url: `https://www.youtube.com/playlist?list=${BROWSE.playlist.id}` },
    });
    expect(first.status).toBe(200);
    expect(first.json.playlist).toEqual({
      playlistId: BROWSE.playlist.id,
      title: 'Pop Music Playlist - Timeless Pop Songs (Updated Weekly 2026)',
      author: 'Redlist - Just Hits',
      videoCountText: '200 videos',
      url: `https://www.youtube.com/playlist?list=${BROWSE.playlist.id}`,
    });
    expect(first.json.items).toHaveLength(100);
    expect(first.json.items[0]).toEqual({
      videoId: 'euCqAq6BRa4',
      title: 'DJ Snake - Let Me Love You ft. Justin Bieber',
      duration: 206,
      published: '9 years ago',
      thumbnail: expect.stringMatching(/^https:\/\/i\.ytimg\.com\/vi\/euCqAq6BRa4\//),
    });
    expect(first.json).toMatchObject({ cached: false, creditsCharged: 1 });
    expect(typeof first.json.nextCursor).toBe('string');

    const second = await rest(h.s.url, 'GET', '/playlists/videos', {
      key,
      query: { playlistId: BROWSE.playlist.id, cursor: first.json.nextCursor },
    });
    expect(second.status).toBe(200);
    expect(second.json).toMatchObject({ playlist: null, nextCursor: null, creditsCharged: 1 });
    expect(second.json.items).toHaveLength(100);
    const ids = [...first.json.items, ...second.json.items].map((v: { videoId: string }) => v.videoId);
    expect(new Set(ids).size).toBe(200);

    // The same first page again, by a watch URL with list=: from the cache, free.
    const again = await rest(h.s.url, 'GET', '/playlists/videos', {
      key,
      query: { url: `https://www.youtube.com/watch?v=euCqAq6BRa4&list=${BROWSE.playlist.id}&index=1` },
    });
    expect(again.json).toMatchObject({ cached: true, creditsCharged: 0 });
    expect(again.json.items).toEqual(first.json.items);
    expect(await balanceOf(h.s, key)).toBe(8);
  });

  it('tRPC: a channel by its /user/ URL, metadata on the first page, page by page through what YouTube recorded', async () => {
    const { key } = await h.s.newKey({ credits: 10 });
    const api = trpcClient(h.s.url, key);
    const first = await api.listing.channel.query({ url: BROWSE.channelVideos.user });
    expect(first.channel).toMatchObject({
      channelId: BROWSE.channelVideos.id,
      name: 'Creative Commons',
      handle: '@creativecommons',
      subscriberCountText: '8.84k subscribers',
      avatar: expect.stringMatching(/^https:\/\/yt3\.googleusercontent\.com\//),
    });
    expect(first.channel!.description).toMatch(/^A nonprofit/);
    expect(first.tab).toBe('videos');
    expect(first.items).toHaveLength(30);
    expect(first.items[0]).toMatchObject({
      videoId: 'BD-LB23rRBE',
      duration: 4054,
      title: expect.stringMatching(/^Expert Panel III/),
    });
    expect(first.items.every((v) => v.published && /ago/.test(v.published))).toBe(true);

    const second = await api.listing.channel.query({ channelId: BROWSE.channelVideos.id, cursor: first.nextCursor! });
    expect(second.channel).toBeNull();
    expect(second.items).toHaveLength(30);
    expect(second.items[0]).toMatchObject({ videoId: 'CIFHx7_z3Vc', duration: 3601, published: '1 year ago' });
    expect(new Set([...first.items, ...second.items].map((v) => v.videoId)).size).toBe(60);
    // The recording stops here: page 2 still offers a next page, which YouTube (the loopback) is asked for with
    // exactly the token page 2 carried, and which it does not have.
    expect(second.nextCursor).toBeTruthy();
    const before = h.yt.count(isInnertube('browse'));
    await expect(
      api.listing.channel.query({ channelId: BROWSE.channelVideos.id, cursor: second.nextCursor! }),
    ).rejects.toMatchObject({ data: { code: 'NOT_FOUND' } });
    expect(h.yt.count(isInnertube('browse'))).toBe(before + 1);
    expect(await balanceOf(h.s, key)).toBe(8); // two pages; the failed third is free
  });

  it('MCP: Shorts tab and a search, read as lines, walked with the cursor the text gives', async () => {
    const { key } = await h.s.newKey({ credits: 10 });
    const client = await mcpClient(h.s.url, key);
    const shorts: any = await client.callTool({
      name: 'list_channel_videos',
      arguments: { channelId: BROWSE.channelShorts.id, tab: 'shorts' },
    });
    expect(shorts.isError).toBeFalsy();
    expect(shorts.structuredContent.items).toHaveLength(48);
    expect(shorts.structuredContent.items[0]).toMatchObject({
      videoId: 'l-X5WbDSH2o',
      title: 'Packing lunch for my special roommate',
      duration: null,
    });
    const text: string = shorts.content[0].text;
    expect(text).toContain('1. l-X5WbDSH2o · Packing lunch for my special roommate');
    const cursor = /cursor="([^"]+)"/.exec(text)![1];
    expect(cursor).toBe(shorts.structuredContent.nextCursor);
    const more: any = await client.callTool({
      name: 'list_channel_videos',
      arguments: { channelId: BROWSE.channelShorts.id, tab: 'shorts', cursor },
    });
    expect(more.structuredContent.items).toHaveLength(48);

    const s1: any = await client.callTool({ name: 'search_youtube_videos', arguments: { query: 'test' } });
    expect(s1.structuredContent.items).toHaveLength(30);
    expect(s1.structuredContent.items.every((v: any) => /^[\w-]{11}$/.test(v.videoId) && v.title)).toBe(true);
    const s2: any = await client.callTool({
      name: 'search_youtube_videos',
      arguments: { query: 'test', cursor: s1.structuredContent.nextCursor },
    });
    expect(s2.structuredContent.items).toHaveLength(20);
    // A cursor is bound to its listing.
    const wrong: any = await client.callTool({
      name: 'search_youtube_videos',
      arguments: { query: 'other', cursor: s1.structuredContent.nextCursor },
    });
    expect(mcpError(wrong)?.code).toBe('INVALID_REQUEST');
    await client.close();
    expect(await balanceOf(h.s, key)).toBe(6);
  });

  it('bad references are 400, unknown playlists 404, and a short balance 402 before YouTube is asked', async () => {
    const { key } = await h.s.newKey({ credits: 5 });
    for (const query of [
      { url: 'https://evil.example/playlist?list=PL1234567890' },
      { url: 'https://www.youtube.com/watch?v=euCqAq6BRa4' },
      {},
    ] as Record<string, string>[]) {
      const r = await rest(h.s.url, 'GET', '/playlists/videos', { key, query });
      expect(r.status).toBe(400);
      expect(r.json.error.code).toBe('INVALID_REQUEST');
    }
    const ch = await rest(h.s.url, 'GET', '/channels/videos', {
      key,
      query: { url: 'https://www.youtube.com/watch?v=x' },
    });
    expect(ch.json.error.code).toBe('INVALID_REQUEST');
    const unknown = await rest(h.s.url, 'GET', '/playlists/videos', {
      key,
      query: { playlistId: 'PLnotrecorded0000000' },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.json.error.code).toBe('NOT_FOUND');
    expect(await balanceOf(h.s, key)).toBe(5);

    const poor = await h.s.newKey();
    const before = h.yt.requests.length;
    const r = await rest(h.s.url, 'GET', '/youtube/search', { key: poor.key, query: { query: 'something new' } });
    expect(r.status).toBe(402);
    expect(r.json.error.code).toBe('INSUFFICIENT_CREDITS');
    expect(h.yt.requests.length).toBe(before);
  });
});
