// Speech-to-text: word error rate and real-time factor per engine and clip, on the openly licensed recordings in
// ../shared/fixtures/audio (see its SOURCES.md). Real-time factor = processing time / audio duration (below 1 is
// faster than real time): wall time through our adapter (decode + recognition), and the recogniser's own CPU time
// (user + system, from /usr/bin/time), which does not depend on what else the shared machine is doing.
import { execFileSync, spawnSync } from 'node:child_process';
import os from 'node:os';
import { SAMPLE_RATE } from '../src/domain/speech/ports.ts';
import { transcribeAudio } from '../src/domain/speech/transcribe-audio.ts';
import { createFfmpegAudioDecoder } from '../src/infra/ffmpeg/decode-audio.ts';
import { createPocketsphinxEngine, findPocketsphinx } from '../src/infra/speech/pocketsphinx-engine.ts';
import {
  audioAvailable,
  normalizeWords,
  speechClips,
  speechProgramme,
  wordErrorRate,
} from '../test/support/speech-audio.ts';
import { startVideoServer } from '../test/support/video-server.ts';
import type { BenchSection } from './support.ts';

const pct = (n: number) => `${(n * 100).toFixed(1)} %`;
const f2 = (n: number) => n.toFixed(2);

/** 16 kHz mono s16le of a file, decoded by ffmpeg (what the service hands an engine). */
const pcmOf = (file: string) =>
  execFileSync('ffmpeg', ['-v', 'error', '-i', file, '-ac', '1', '-ar', String(SAMPLE_RATE), '-f', 's16le', 'pipe:1'], {
    maxBuffer: 1 << 28,
  });

/** CPU seconds pocketsphinx itself spends on a file (user + system), or null without /usr/bin/time. */
function sphinxCpuSeconds(binary: string, file: string): number | null {
  const raw = `${os.tmpdir()}/bench-sphinx.raw`;
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-i', file, '-ac', '1', '-ar', String(SAMPLE_RATE), '-f', 's16le', raw]);
  const r = spawnSync(
    '/usr/bin/time',
    ['-f', '%U %S', binary, '-infile', raw, '-time', 'yes', '-samprate', '16000', '-logfn', '/dev/null'],
    { encoding: 'utf8' },
  );
  if (r.status !== 0) return null;
  const [u, s] = r.stderr.trim().split('\n').at(-1)!.split(' ').map(Number);
  return (u ?? 0) + (s ?? 0);
}

export async function run(): Promise<BenchSection[]> {
  if (!audioAvailable)
    throw new Error('the shared audio fixtures are needed (../shared/fixtures/audio or AUDIO_FIXTURES_DIR)');
  const binary = findPocketsphinx(process.env.PATH ?? '');
  if (!binary) throw new Error('pocketsphinx_continuous is needed (apt-get install pocketsphinx pocketsphinx-en-us)');
  const engine = createPocketsphinxEngine({ binary, timeoutMs: 600_000 });
  const load = os.loadavg()[0]!.toFixed(1);

  const rows: string[] = [];
  let refWords = 0;
  let errors = 0;
  for (const clip of speechClips()) {
    const t0 = performance.now();
    const out = await engine.transcribe(pcmOf(clip.file), {});
    const wall = (performance.now() - t0) / 1000;
    const cpu = sphinxCpuSeconds(binary, clip.file);
    const hyp = out.segments.map((s) => s.text).join(' ');
    const wer = wordErrorRate(clip.reference, hyp);
    if (clip.lang === 'en') {
      const n = normalizeWords(clip.reference).split(' ').length;
      refWords += n;
      errors += wer * n;
    }
    rows.push(
      `| ${clip.name} | ${clip.lang} | ${f2(clip.seconds)} | ${clip.lang === 'en' ? pct(wer) : `${pct(wer)} (English only)`} | ${f2(wall / clip.seconds)} | ${cpu === null ? 'n/a' : f2(cpu / clip.seconds)} | ${hyp || '(nothing)'} |`,
    );
  }

  // The whole path the service runs: HTTP download, ffmpeg decode, cut on silence, recognition, re-timing.
  const programme = speechProgramme();
  const server = await startVideoServer({ '/a.webm': { file: programme.file, contentType: 'audio/webm' } });
  let wholeRow: string;
  try {
    const decoder = createFfmpegAudioDecoder({ ffmpegPath: 'ffmpeg', extraOrigins: [server.origin] });
    const t0 = performance.now();
    const r = await transcribeAudio(
      { decoder, engine },
      { url: server.url('/a.webm') },
      { maxSeconds: 3600, maxBytes: 1e9 },
    );
    const wall = (performance.now() - t0) / 1000;
    const wer = wordErrorRate(programme.reference, r.segments.map((s) => s.text).join(' '));
    wholeRow = `| the five LibriVox sentences as one ${f2(programme.seconds)} s Opus stream with pauses (two chunks) | ${pct(wer)} | ${f2(wall / programme.seconds)} | ${r.segments.length} |`;
  } finally {
    await server.close();
  }

  const markdown = [
    `Engines tried on this machine (2 cores shared with other work; 1-minute load average ${load} when this ran, so wall-clock`,
    'figures are pessimistic: the CPU column is the recogniser’s own user + system time).',
    '',
    '- **local: pocketsphinx 5prealpha (Debian `pocketsphinx` + `pocketsphinx-en-us`, the en-us continuous model and its',
    '  general trigram LM)**: installs from Debian, runs offline, English only. Measured below. It is the offline engine for when',
    '  no Whisper server is configured.',
    '- **sherpa-onnx-node 1.13.8** (npm, prebuilt native, 32 MB): installs and loads here, but needs ONNX model files',
    '  (Whisper, Moonshine, zipformer) that neither npm nor Debian carries and nothing here may download; not measured.',
    '  An operator with a model can run it behind any OpenAI-compatible server instead.',
    '- **whisper.cpp bindings** (`@napi-rs/whisper`, `smart-whisper`, `nodejs-whisper`): the same obstacle, no ggml',
    '  weights obtainable offline; not measured.',
    '- **OpenAI-compatible server** (speaches/faster-whisper, whisper.cpp server, Groq, OpenAI): the',
    '  production path; no such server is reachable from this machine, so only its protocol is tested (loopback).',
    '',
    `Per clip, pocketsphinx (WER over the reference transcript after lower-casing and removing punctuation;`,
    `overall English WER ${pct(errors / refWords)} over ${refWords} words):`,
    '',
    '| clip | lang | audio s | WER | RTF wall | RTF CPU | recognised |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
    '',
    'Through the service’s own path (transcribeAudio: HTTP, ffmpeg, silence cuts every ≤ 30 s, recognition):',
    '',
    '| input | WER | RTF wall | segments |',
    '| --- | --- | --- | --- |',
    wholeRow,
  ].join('\n');
  return [{ title: '9. Speech-to-text engines', markdown }];
}
