// Which language a caption track's text is in, with eld (Efficient Language Detector, npm `eld`, Apache-2.0): pure
// JavaScript, no native build, no model download (its n-gram tables ship in the package), ISO 639-1 codes out, 60
// languages, and a reliability test of its own. Chosen over franc (ISO 639-3 codes to map, lower accuracy in eld's and
// lingua's benchmarks), tinyld (no release since 2024) and cld (a native addon). Its smallest table ("extrasmall",
// about 28 MiB of live heap, 0.9 s to load) is loaded on the first track judged, so a process that never extracts an
// auto-generated track never pays for it.
import type { LanguageIdentifier } from '../../domain/ports.ts';

/** Characters of text handed to the detector: enough for a clear verdict, small enough to cost well under 10 ms. */
const SAMPLE_CHARS = 2_000;
/** Below this many letters (after dropping [Music]-like annotations) a transcript is too short to judge. */
export const MIN_LETTERS = 200;
/** The winner's score must lead the runner-up's by this much (eld's scores are 0-1): close calls are no verdict. */
const MIN_LEAD = 0.1;

/** YouTube still labels some languages with retired or macro-language codes; eld answers the current ones. */
const ELD_CODE: Record<string, string> = { iw: 'he', ji: 'yi', jw: 'jv', in: 'id', nb: 'no', nn: 'no', fil: 'tl' };

interface Eld {
  detect(text: string): { language: string; getScores(): Record<string, number>; isReliable(): boolean };
  info(): { Languages: Record<number, string> };
}

const CLOSING: Record<string, string> = { '[': ']', '(': ')' };
/** How far a bracketed annotation may run. */
const ANNOTATION_CHARS = 60;

/**
 * The text without what says nothing about the language spoken: bracketed sound annotations ([Music], (applause)),
 * music notes and URLs. A scan, not a pattern: each bracket looks at most ANNOTATION_CHARS ahead.
 */
function withoutNoise(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    const close = CLOSING[ch];
    if (close) {
      const ahead = text.slice(i + 1, i + 2 + ANNOTATION_CHARS);
      const end = ahead.indexOf(close);
      if (end !== -1 && !ahead.slice(0, end).includes(ch)) {
        out += ' ';
        i += end + 1;
        continue;
      }
    }
    out += ch === '♪' || ch === '♫' ? ' ' : ch;
  }
  return out
    .split(/\s+/)
    .filter((w) => w && !w.startsWith('http://') && !w.startsWith('https://'))
    .join(' ');
}

/**
 * Up to SAMPLE_CHARS of the texts, taken from evenly spaced segments across the whole transcript (an intro in another
 * language does not decide), cleaned of annotations.
 */
export function sampleText(texts: readonly string[]): string {
  let total = 0;
  for (const t of texts) total += t.length;
  const stride = Math.max(1, Math.floor(total / SAMPLE_CHARS));
  let sample = '';
  for (let i = 0; i < texts.length && sample.length < SAMPLE_CHARS; i += stride) {
    const clean = withoutNoise(texts[i] ?? '');
    if (clean) sample += `${clean} `;
  }
  return sample.slice(0, SAMPLE_CHARS);
}

const letterCount = (s: string) => s.match(/\p{L}/gu)?.length ?? 0;

export function createLanguageIdentifier(
  load: () => Promise<Eld> = async () => (await import('eld/extrasmall')).eld as Eld,
): LanguageIdentifier {
  let loading: Promise<{ eld: Eld; languages: Set<string> }> | undefined;
  const ready = () =>
    (loading ??= load().then((eld) => ({ eld, languages: new Set(Object.values(eld.info().Languages)) })));

  return {
    async identify(texts, label) {
      const sample = sampleText(texts);
      if (letterCount(sample) < MIN_LETTERS) return null;
      const { eld, languages } = await ready();
      const base = label.toLowerCase().split(/[-_]/)[0] ?? '';
      if (!languages.has(ELD_CODE[base] ?? base)) return null;
      const result = eld.detect(sample);
      if (!result.language || !result.isReliable()) return null;
      const [first = 0, second = 0] = Object.values(result.getScores()).sort((a, b) => b - a);
      return first - second >= MIN_LEAD ? result.language : null;
    },
  };
}
