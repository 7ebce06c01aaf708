import { describe, expect, it } from 'vitest';
import { toSrt, toText, toVtt } from './transcript-formats.ts';

const segments = [
  { start: 0, end: 2.5, text: 'hello' },
  { start: 3661.042, end: 3662, text: 'a --> b\n\nend' },
];

describe('transcript downloads', () => {
  it('SRT: numbered cues, comma milliseconds, no blank line inside a cue', () => {
    expect(toSrt(segments)).toBe('1\n00:00:00,000 --> 00:00:02,500\nhello\n\n2\n01:01:01,042 --> 01:01:02,000\na --> b\nend\n');
  });
  it('WebVTT: header, dot milliseconds, no arrow inside cue text', () => {
    expect(toVtt(segments)).toBe('WEBVTT\n\n00:00:00.000 --> 00:00:02.500\nhello\n\n01:01:01.042 --> 01:01:02.000\na -> b\nend\n');
  });
  it('text: one line per segment', () => {
    expect(toText(segments)).toBe('hello\na --> b\n\nend\n');
  });
});
