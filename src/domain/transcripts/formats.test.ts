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

describe('word cues and chapter headings', () => {
  const worded = [
    {
      start: 1,
      end: 3,
      text: 'hello and welcome',
      words: [
        { start: 1, text: 'hello' },
        { start: 1.24, text: 'and' },
        { start: 1.9, text: 'welcome' },
      ],
    },
    {
      start: 3,
      end: 4,
      text: 'a <b> & c',
      words: [
        { start: 3.2, text: 'a' },
        { start: 3.5, text: '<b>' },
        { start: 3.5, text: '&' },
        { start: 4.2, text: 'c' },
      ],
    },
    { start: 5, end: 6, text: 'no words', words: null },
  ];
  it('WebVTT word cues as YouTube writes them: first word plain, the next after its timestamp in <c>', () => {
    expect(toVtt(worded)).toBe(
      'WEBVTT\n\n' +
        '00:00:01.000 --> 00:00:03.000\nhello<00:00:01.240><c> and</c><00:00:01.900><c> welcome</c>\n\n' +
        // A timestamp not after the one before, or past the cue's end, is left out; markup in words is escaped.
        '00:00:03.000 --> 00:00:04.000\na<00:00:03.500><c> &lt;b&gt;</c><c> &amp;</c><c> c</c>\n\n' +
        '00:00:05.000 --> 00:00:06.000\nno words\n',
    );
  });
  const headings = [
    { at: 0, title: 'Intro', start: 0 },
    { at: 2, title: 'Main part', start: 4.5 },
  ];
  it('text: each chapter title as a heading with its start', () => {
    expect(toText(worded, headings)).toBe(
      '## Intro (0:00)\n\nhello and welcome\na <b> & c\n\n## Main part (0:04)\n\nno words\n',
    );
  });
  it('cite lines and WebVTT notes', () => {
    expect(toCiteLines(worded, headings)).toBe(
      '## Intro (0:00)\n\n[0:00:01] hello and welcome\n[0:00:03] a <b> & c\n\n## Main part (0:04)\n\n[0:00:05] no words',
    );
    expect(toVtt(worded.slice(2), [{ at: 0, title: 'A --> B', start: 4.5 }])).toBe(
      'WEBVTT\n\nNOTE Chapter 0:04 A -> B\n\n00:00:05.000 --> 00:00:06.000\nno words\n',
    );
  });
});
