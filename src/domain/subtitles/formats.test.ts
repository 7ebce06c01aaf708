import { describe, expect, it } from 'vitest';
import { clock, hms, renderTranscript, toCiteLines, toSrt, toText, toVtt } from './formats.ts';

const segments = [
  { start: 0, end: 2.5, text: 'hello' },
  { start: 3661.042, end: 3662, text: 'a --> b\n\nend' },
];

describe('transcript formats', () => {
  it('SRT: numbered cues, comma milliseconds, no blank line inside a cue', () => {
    expect(toSrt(segments)).toBe(
      '1\n00:00:00,000 --> 00:00:02,500\nhello\n\n2\n01:01:01,042 --> 01:01:02,000\na --> b\nend\n',
    );
  });
  it('SRT of a page numbers its cues from where the page starts', () => {
    expect(renderTranscript('srt', segments.slice(1), 2)).toBe('2\n01:01:01,042 --> 01:01:02,000\na --> b\nend\n');
  });
  it('WebVTT: header, dot milliseconds, no arrow inside cue text', () => {
    expect(toVtt(segments)).toBe(
      'WEBVTT\n\n00:00:00.000 --> 00:00:02.500\nhello\n\n01:01:01.042 --> 01:01:02.000\na -> b\nend\n',
    );
  });
  it('text: one line per segment', () => {
    expect(toText(segments)).toBe('hello\na --> b\n\nend\n');
  });
  it('cite lines: [h:mm:ss] and the text on one line', () => {
    expect(toCiteLines(segments)).toBe('[0:00:00] hello\n[1:01:01] a --> b end');
  });
  it('clocks', () => {
    expect([clock(75.3), clock(3725), hms(75.3), hms(0)]).toEqual(['1:15', '1:02:05', '0:01:15', '0:00:00']);
  });
});
