import { describe, expect, it } from 'vitest';

import { jpegSize } from './jpeg-size.ts';

// SOI, an APP0 segment, a DHT-like C4 segment (must not be taken for SOF), then SOF2 (progressive) 640x360.
const jpeg = Buffer.from([
  0xff,
  0xd8,
  0xff,
  0xe0,
  0x00,
  0x04,
  0x4a,
  0x46,
  0xff,
  0xc4,
  0x00,
  0x07,
  0x00,
  0x01,
  0x00,
  0x02,
  0x00,
  0xff,
  0xff, // fill byte
  0xff,
  0xc2,
  0x00,
  0x0b,
  0x08,
  0x01,
  0x68,
  0x02,
  0x80,
  0x01,
  0x01,
  0x11,
  0x00,
  0xff,
  0xd9,
]);

describe('jpegSize', () => {
  it('reads width and height from the SOF segment, skipping others', () => {
    expect(jpegSize(jpeg)).toEqual({ width: 640, height: 360 });
  });

  it.each([
    ['empty', Buffer.alloc(0)],
    ['not a JPEG', Buffer.from('\x89PNG\r\n\x1a\n....')],
    ['truncated', jpeg.subarray(0, 24)],
    ['SOS before SOF', Buffer.from([0xff, 0xd8, 0xff, 0xda, 0x00, 0x02])],
    ['garbage between segments', Buffer.from([0xff, 0xd8, 0x00, 0x00, 0x00, 0x00])],
  ])('answers null for %s', (_, bytes) => {
    expect(jpegSize(bytes)).toBeNull();
  });
});
