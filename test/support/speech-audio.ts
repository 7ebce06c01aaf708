// Real speech for speech-to-text tests and benchmarks: the recordings in ../shared/fixtures/audio (see its
// SOURCES.md), read in place, their reference transcripts, and a longer programme made from them with ffmpeg.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { REPO_ROOT } from './fixture-files.ts';
import { needsSystemTool } from './system-needs.ts';

needsSystemTool('ffmpeg');

const AUDIO_DIR = resolve(REPO_ROOT, process.env.AUDIO_FIXTURES_DIR ?? '../shared/fixtures/audio');
export const audioAvailable = existsSync(join(AUDIO_DIR, 'SOURCES.md'));

export interface SpeechClip {
  name: string;
  file: string;
  seconds: number;
  /** The reference words, lower case, no punctuation. */
  reference: string;
  lang: string;
}

const LIBRIVOX = ['0870', '0880', '0890', '0920', '0930'].map(
  (n) => `librivox.sense_and_sensibility_01_austen_64kb-${n}`,
);

/** Every clip with its reference transcript (each upstream format read as it is; see SOURCES.md). */
export function speechClips(): SpeechClip[] {
  const read = (name: string) => readFileSync(join(AUDIO_DIR, name), 'utf8');
  const clips: SpeechClip[] = LIBRIVOX.map((base) => ({
    name: base,
    file: join(AUDIO_DIR, `${base}.wav`),
    seconds: 0,
    reference: normalizeWords(read(`${base}.txt`)),
    lang: 'en',
  }));
  // TIMIT: "<start-sample> <end-sample> <text>".
  clips.push({
    name: 'timit-sample.LDC93S1',
    file: join(AUDIO_DIR, 'timit-sample.LDC93S1.wav'),
    seconds: 0,
    reference: normalizeWords(read('timit-sample.LDC93S1.txt').replace(/^\s*\d+\s+\d+\s+/, '')),
    lang: 'en',
  });
  // DeepSpeech CSV: header, then "file,size,transcript".
  const ru = read('ru.deepspeech-smoke-test.txt').trim().split('\n')[1]!.split(',').slice(2).join(',');
  clips.push({
    name: 'ru.deepspeech-smoke-test',
    file: join(AUDIO_DIR, 'ru.deepspeech-smoke-test.wav'),
    seconds: 0,
    reference: normalizeWords(ru),
    lang: 'ru',
  });
  for (const c of clips) c.seconds = probeSeconds(c.file);
  return clips;
}

export const normalizeWords = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}' ]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();

/** Word error rate: word-level edit distance over the reference's length. */
export function wordErrorRate(reference: string, hypothesis: string): number {
  const r = normalizeWords(reference).split(' ').filter(Boolean);
  const h = normalizeWords(hypothesis).split(' ').filter(Boolean);
  if (r.length === 0) return h.length === 0 ? 0 : 1;
  let prev = Array.from({ length: h.length + 1 }, (_, j) => j);
  for (let i = 1; i <= r.length; i++) {
    const cur = [i];
    for (let j = 1; j <= h.length; j++)
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (r[i - 1] === h[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[h.length]! / r.length;
}

function probeSeconds(file: string): number {
  const out = execFileSync(
    'ffprobe',
    ['-v', 'error', '-show_entries', 'format=duration', '-of', 'default=nw=1:nk=1', file],
    { encoding: 'utf8' },
  );
  return Number(out.trim());
}

/** Where each clip starts in the programme, and the programme's reference words in order. */
export interface Programme {
  file: string;
  seconds: number;
  parts: Array<{ clip: SpeechClip; start: number; end: number }>;
  reference: string;
}

/**
 * The five LibriVox sentences as one Opus/WebM audio stream (what YouTube serves as itag 249), with pauses between
 * them and a 10-second silence in the middle, so that the local engine's 30-second chunks must be cut (in that
 * silence) and the later sentences re-timed. Made once per machine under the OS temp dir.
 */
export function speechProgramme(): Programme {
  const clips = speechClips().filter((c) => c.name.startsWith('librivox'));
  const gaps = [3, 3, 10, 3];
  const parts: Programme['parts'] = [];
  let t = 0;
  clips.forEach((clip, i) => {
    parts.push({ clip, start: t, end: t + clip.seconds });
    t += clip.seconds + (gaps[i] ?? 0);
  });
  const dir = join(tmpdir(), 'subtext-test-audio');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `programme-v1-${gaps.join('-')}.webm`);
  if (!existsSync(file)) {
    const inputs = clips.flatMap((c) => ['-i', c.file]);
    const filters = clips.map((_, i) => `[${i}:a]apad=pad_dur=${gaps[i] ?? 0}[a${i}]`).join(';');
    const concat = `${clips.map((_, i) => `[a${i}]`).join('')}concat=n=${clips.length}:v=0:a=1[out]`;
    const tmp = `${file}.${process.pid}.tmp.webm`;
    execFileSync('ffmpeg', [
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      ...inputs,
      '-filter_complex',
      `${filters};${concat}`,
      '-map',
      '[out]',
      '-c:a',
      'libopus',
      '-b:a',
      '48k',
      '-f',
      'webm',
      tmp,
    ]);
    renameSync(tmp, file);
  }
  return { file, seconds: t, parts, reference: clips.map((c) => c.reference).join(' ') };
}
