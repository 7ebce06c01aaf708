// The local engine: CMU pocketsphinx (Debian's pocketsphinx + pocketsphinx-en-us), run as a child process per chunk.
// Offline, English only, and weak next to Whisper (see BENCHMARKS.md), but it needs no model download and no service.
import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { ServiceError } from '../../domain/errors.ts';
import type { EngineResult, SpeechEngine } from '../../domain/speech/ports.ts';
import { parsePocketsphinx } from './parse-pocketsphinx.ts';

const POCKETSPHINX_BINARY = 'pocketsphinx_continuous';

/** The pocketsphinx_continuous on `pathEnv`, or null. */
export function findPocketsphinx(pathEnv: string): string | null {
  for (const dir of pathEnv.split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, POCKETSPHINX_BINARY);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

export function createPocketsphinxEngine(opts: { binary: string; timeoutMs: number }): SpeechEngine {
  return {
    name: 'local',
    model: 'pocketsphinx en-us',
    // Its own voice activity detection splits utterances; chunks only bound memory and make progress visible.
    maxChunkSeconds: 30,
    languages: ['en'],
    async transcribe(pcm, { signal }): Promise<EngineResult> {
      const output = await run(
        opts.binary,
        pcm,
        AbortSignal.any([AbortSignal.timeout(opts.timeoutMs), ...(signal ? [signal] : [])]),
      );
      return { language: 'en', segments: parsePocketsphinx(output) };
    },
  };
}

// Node's stdio pipes are sockets, which pocketsphinx cannot open as /dev/stdin: each chunk goes through a file.
async function run(binary: string, pcm: Buffer, signal: AbortSignal): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'subtext-sphinx-'));
  try {
    const file = join(dir, 'chunk.raw');
    await writeFile(file, pcm);
    return await runOn(binary, file, signal);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function runOn(binary: string, file: string, signal: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    // Raw 16 kHz s16le (no header needed); -logfn keeps its log off stderr.
    const child = spawn(binary, ['-infile', file, '-time', 'yes', '-samprate', '16000', '-logfn', '/dev/null'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    const onAbort = () => child.kill('SIGKILL');
    signal.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => err.length < 4096 && (err += c.toString('utf8')));
    child.on('error', (e) => {
      signal.removeEventListener('abort', onAbort);
      reject(new ServiceError('EXTRACTION_FAILED', `cannot run ${POCKETSPHINX_BINARY}: ${e.message}`));
    });
    child.on('close', (code) => {
      signal.removeEventListener('abort', onAbort);
      if (signal.aborted) return reject(new ServiceError('EXTRACTION_FAILED', 'speech recognition timed out'));
      if (code !== 0)
        return reject(
          new ServiceError(
            'EXTRACTION_FAILED',
            `speech recognition failed: ${err.trim().split('\n').at(-1) || `exit ${code}`}`,
          ),
        );
      resolve(out);
    });
  });
}
