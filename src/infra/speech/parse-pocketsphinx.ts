// pocketsphinx_continuous -time yes prints, per utterance, the hypothesis and then one line per word:
// "word start end posterior" (seconds), framed by <s> and </s>, with fillers ([NOISE], <sil>, ++UH++) and alternate
// pronunciations marked "been(2)".
import type { WordedSegment } from '../../domain/transcripts/words.ts';

const WORD_LINE = /^(\S+) (\d+(?:\.\d+)?) (\d+(?:\.\d+)?) (\d+(?:\.\d+)?)$/;

/** Longest segment we emit: a long utterance is split at word boundaries, as captions would be. */
const MAX_SEGMENT_SECONDS = 10;
const MAX_SEGMENT_WORDS = 20;
/** A pause this long inside an utterance starts a new segment. */
const PAUSE_SECONDS = 0.6;

/** Segments with their words: each word's own times, and its posterior probability as the confidence. */
export function parsePocketsphinx(output: string): WordedSegment[] {
  const segments: WordedSegment[] = [];
  let words: Array<{ w: string; start: number; end: number; p: number }> = [];
  const flush = () => {
    if (words.length > 0)
      segments.push({
        start: words[0]!.start,
        end: words.at(-1)!.end,
        text: words.map((x) => x.w).join(' '),
        words: words.map((x) => ({ start: x.start, end: x.end, text: x.w, confidence: x.p })),
      });
    words = [];
  };
  for (const line of output.split('\n')) {
    const m = WORD_LINE.exec(line.trim());
    if (!m) continue;
    const token = m[1]!;
    const start = Number(m[2]);
    const end = Number(m[3]);
    if (token === '<s>' || token === '</s>') {
      flush();
      continue;
    }
    if (isFiller(token)) continue;
    const w = token.replace(/\(\d+\)$/, '');
    const last = words.at(-1);
    if (
      last &&
      (start - last.end > PAUSE_SECONDS ||
        end - words[0]!.start > MAX_SEGMENT_SECONDS ||
        words.length >= MAX_SEGMENT_WORDS)
    )
      flush();
    words.push({ w, start, end, p: Math.min(1, Math.max(0, Number(m[4]))) });
  }
  flush();
  return segments;
}

const isFiller = (t: string) => /^(<.*>|\[.*\]|\+\+.*\+\+)$/.test(t);
