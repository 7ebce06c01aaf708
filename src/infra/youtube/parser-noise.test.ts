// youtubei.js' parser warnings (a stack trace or a generated class per unknown renderer) stay out of stderr.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { YT } from 'youtubei.js';
import { createSessions } from './innertube-session.ts';

afterEach(() => vi.restoreAllMocks());

describe('youtubei.js parser noise', () => {
  it('an answer with renderers youtubei.js does not know parses without a word on the console', async () => {
    const printed: unknown[][] = [];
    for (const level of ['warn', 'error', 'info', 'debug', 'log'] as const)
      vi.spyOn(console, level).mockImplementation((...a) => void printed.push(a));
    const yt = await createSessions({ fetch: () => Promise.reject(new Error('no network in this test')) }).plain();
    // A renderer name no version of youtubei.js knows, where it expects a caption tracklist.
    const raw = {
      playabilityStatus: { status: 'OK' },
      videoDetails: { videoId: 'OwnVideo001', title: 't', lengthSeconds: '1' },
      captions: { playerCaptionsSubtextRenderer: { baseUrl: 'https://www.youtube.com/api/timedtext' } },
    };
    const info = new YT.VideoInfo([{ success: true, status_code: 200, data: raw as never }], yt.actions, '');
    expect(info.basic_info.id).toBe('OwnVideo001');
    expect(printed.filter((a) => String(a[0]).includes('YOUTUBEJS'))).toEqual([]);
  });
});
