import { describe, expect, it } from 'vitest';
import { parseChannelRef, parsePlaylistRef } from './collection-ref.ts';
import { decodeCursor, encodeCursor } from './cursor.ts';

const PL = 'PLMC9KNkIncKtPzgY-5rmhvj7fax8fdxoj';
const UC = 'UCTwECeGqMZee77BjdoYtI2Q';

describe('playlist references', () => {
  it.each([
    [{ playlistId: PL }],
    [{ url: PL }],
    [{ url: `https://www.youtube.com/playlist?list=${PL}` }],
    [{ url: `youtube.com/playlist?list=${PL}` }],
    [{ url: `https://m.youtube.com/watch?v=euCqAq6BRa4&list=${PL}&index=3` }],
    [{ url: `https://music.youtube.com/playlist?list=${PL}` }],
  ])('%j', (input) => expect(parsePlaylistRef(input)).toBe(PL));

  it.each([
    [{}],
    [{ url: `https://www.youtube.com/playlist?list=${PL}`, playlistId: PL }],
    [{ url: 'https://www.youtube.com/watch?v=euCqAq6BRa4' }],
    [{ url: `https://youtube.com.evil.com/playlist?list=${PL}` }],
    [{ url: `https://user@www.youtube.com/playlist?list=${PL}` }],
    [{ playlistId: 'PL<script>' }],
  ])('refuses %j', (input) =>
    expect(() => parsePlaylistRef(input)).toThrow(expect.objectContaining({ code: 'INVALID_REQUEST' })),
  );
});

describe('channel references', () => {
  it.each([
    [{ channelId: UC }, { channelId: UC }],
    [{ url: `https://www.youtube.com/channel/${UC}/videos` }, { channelId: UC }],
    [{ url: 'https://www.youtube.com/@creativecommons' }, { path: '/@creativecommons' }],
    [{ url: 'https://www.youtube.com/@creativecommons/shorts' }, { path: '/@creativecommons' }],
    [{ channelId: '@creativecommons' }, { path: '/@creativecommons' }],
    [{ url: 'https://www.youtube.com/c/creativecommons' }, { path: '/c/creativecommons' }],
    [{ url: 'https://www.youtube.com/user/creativecommons' }, { path: '/user/creativecommons' }],
  ])('%j', (input, out) => expect(parseChannelRef(input)).toEqual(out));

  it.each([
    [{}],
    [{ channelId: 'creativecommons' }],
    [{ url: 'https://www.youtube.com/watch?v=x' }],
    [{ url: 'https://evil.com/@x' }],
  ])('refuses %j', (input) =>
    expect(() => parseChannelRef(input)).toThrow(expect.objectContaining({ code: 'INVALID_REQUEST' })),
  );
});

describe('cursors', () => {
  it('carry the continuation for their own listing only', () => {
    const c = encodeCursor({ scope: 'search:test', continuation: 'tok' });
    expect(decodeCursor(c, 'search:test')).toBe('tok');
    expect(() => decodeCursor(c, 'search:other')).toThrow(expect.objectContaining({ code: 'INVALID_REQUEST' }));
    expect(() => decodeCursor('not-a-cursor', 'search:test')).toThrow(
      expect.objectContaining({ code: 'INVALID_REQUEST' }),
    );
  });
});
