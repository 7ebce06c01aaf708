// Review (chapters and word timing in WebVTT): chapter titles come from the video's uploader and caption text from
// its captions. "--->" was rewritten to "-->" (the replacement left an arrow), and a carriage return (a WebVTT line
// break) went through into a NOTE, so either could end a block and start a cue the video's owner wrote.
import { describe, expect, it } from 'vitest';
import { renderTranscript } from '../../src/domain/transcripts/formats.ts';

const arrows = (vtt: string) => vtt.split(/\r\n|\r|\n/).filter((l) => l.includes('-->')).length;

describe('WebVTT from hostile captions and chapter titles', () => {
  it('a caption holding "--->" makes no second cue', () => {
    const vtt = renderTranscript('vtt', [{ start: 0, end: 2, text: 'hi\n00:00:00.000 ---> 09:00:00.000\nowned' }]);
    expect(arrows(vtt)).toBe(1);
  });

  it('a chapter title with carriage returns or "--->" stays one NOTE line', () => {
    const vtt = renderTranscript('vtt', [{ start: 0, end: 2, text: 'hello' }], 1, [
      { at: 0, start: 0, title: 'Intro\r\rSTYLE\r::cue { color: red }\r\r00:00:00.000 ---> 09:00:00.000\rowned' },
    ]);
    expect(vtt).not.toContain('\r');
    expect(arrows(vtt)).toBe(1);
    expect(vtt.split('\n').filter((l) => l.startsWith('NOTE'))).toHaveLength(1);
  });

  it('a word with "--->" or a carriage return stays inside its cue', () => {
    const vtt = renderTranscript('vtt', [
      {
        start: 0,
        end: 2,
        text: 'a b',
        words: [
          { start: 0, text: 'a\r\r00:00:00.000 ---> 09:00:00.000\rowned' },
          { start: 1, text: 'b' },
        ],
      } as never,
    ]);
    expect(vtt).not.toContain('\r');
    expect(arrows(vtt)).toBe(1);
  });
});
