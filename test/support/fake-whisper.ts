// A loopback OpenAI-compatible transcription server (POST /v1/audio/transcriptions). It parses the multipart request
// as a real server would, records what arrived (fields, the WAV's format and length), and answers verbose_json in
// the shape OpenAI documents (segments with start/end in seconds relative to the uploaded file).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

interface WhisperRequest {
  path: string;
  authorization: string | undefined;
  contentType: string;
  fields: Record<string, string[]>;
  file: {
    name: string;
    type: string;
    bytes: number;
    sampleRate: number;
    channels: number;
    bitsPerSample: number;
    seconds: number;
  } | null;
}

export interface FakeWhisper {
  origin: string;
  requests: WhisperRequest[];
  /** What to answer for a request (default: one segment per 5 s of audio, language "english"). */
  answer: (r: WhisperRequest) => { status?: number; body: unknown };
  close(): Promise<void>;
}

export async function startFakeWhisper(): Promise<FakeWhisper> {
  const requests: WhisperRequest[] = [];
  const fake: FakeWhisper = {
    origin: '',
    requests,
    answer: (r) => ({ body: verboseJson(r.file?.seconds ?? 0) }),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks);
      const contentType = req.headers['content-type'] ?? '';
      const seen: WhisperRequest = {
        path: req.url ?? '',
        authorization: req.headers.authorization,
        contentType,
        fields: {},
        file: null,
      };
      try {
        const form = await new Request('http://x/', {
          method: 'POST',
          headers: { 'content-type': contentType },
          body,
        }).formData();
        for (const [name, value] of form.entries()) {
          if (typeof value === 'string') (seen.fields[name] ??= []).push(value);
          else seen.file = describeWav(value.name, value.type, Buffer.from(await value.arrayBuffer()));
        }
      } catch {
        // not multipart: recorded with no fields; the answer below still goes out
      }
      requests.push(seen);
      const { status = 200, body: answer } = fake.answer(seen);
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}

function describeWav(name: string, type: string, bytes: Buffer): WhisperRequest['file'] {
  const riff = bytes.subarray(0, 4).toString('ascii') === 'RIFF' && bytes.subarray(8, 12).toString('ascii') === 'WAVE';
  const channels = riff ? bytes.readUInt16LE(22) : 0;
  const sampleRate = riff ? bytes.readUInt32LE(24) : 0;
  const bitsPerSample = riff ? bytes.readUInt16LE(34) : 0;
  const data = riff ? bytes.readUInt32LE(40) : 0;
  return {
    name,
    type,
    bytes: bytes.length,
    sampleRate,
    channels,
    bitsPerSample,
    seconds: sampleRate ? data / (sampleRate * channels * (bitsPerSample / 8)) : 0,
  };
}

/** OpenAI's verbose_json: one segment per 5 seconds of the uploaded audio. */
export function verboseJson(seconds: number) {
  const segments = [];
  for (let t = 0, id = 0; t < seconds; t += 5, id++) {
    segments.push({
      id,
      seek: 0,
      start: t,
      end: Math.min(seconds, t + 5),
      text: ` words ${id} of the chunk`,
      tokens: [1, 2],
      temperature: 0,
      avg_logprob: -0.2,
      compression_ratio: 1.1,
      no_speech_prob: 0.01,
    });
  }
  return {
    task: 'transcribe',
    language: 'english',
    duration: seconds,
    text: segments.map((s) => s.text).join(''),
    segments,
  };
}

/**
 * verbose_json asked for word timestamps too: every word of each segment with its own times, spread over the
 * segment. `openai`: a top-level `words` list of `{word, start, end}` (as OpenAI documents it); `segments`: each
 * segment's own `words` with a `probability` (as faster-whisper servers such as speaches answer).
 */
export function verboseJsonWithWords(seconds: number, style: 'openai' | 'segments') {
  const plain = verboseJson(seconds);
  const timed = plain.segments.map((s) => {
    const said = s.text.trim().split(' ');
    const step = (s.end - s.start) / said.length;
    return said.map((w, i) => ({
      word: ` ${w}`,
      start: Math.round((s.start + i * step) * 1000) / 1000,
      end: Math.round((s.start + (i + 0.8) * step) * 1000) / 1000,
    }));
  });
  if (style === 'openai') return { ...plain, words: timed.flat() };
  return {
    ...plain,
    segments: plain.segments.map((s, i) => ({
      ...s,
      words: timed[i]!.map((w, k) => ({ ...w, probability: 0.5 + k / 20 })),
    })),
  };
}
