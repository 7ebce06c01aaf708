// Where a hot-path request allocates (or spends CPU), in process: the service (startTestServer, LOG_LEVEL info)
// answers the stored one-hour transcript under a fixed load from autocannon in a child process, while V8's sampling
// heap profiler counts every allocation, collected or not. Prints KiB allocated per request, by allocating frame and by
// the nearest frames of our own source. ALLOC_TARGET=rest|trpc|mcp, ALLOC_N requests (3000), ALLOC_TOP rows;
// ALLOC_CPU=1 prints CPU self time by package instead. Run it with the start script's flags:
//   NODE_ENV=production node --max-semi-space-size=8 --max-old-space-size=1024 bench/alloc-profile.ts | grep -v '^{'
// (the service's request log goes to stdout). Not part of `npm run bench`: a tool for finding garbage.
import { spawn } from 'node:child_process';
import { Session } from 'node:inspector/promises';
import { startTestServer } from '../test/support/test-server.ts';
import { seedHotTranscript, HOT_VIDEO } from './hot-path.ts';

const REPO_URL = new URL('../', import.meta.url).href;
type Frame = { functionName: string; url: string; lineNumber: number };
type CpuNode = { id: number; callFrame: Frame };
type Node = { callFrame: Frame; selfSize: number; children: Node[] };

const target = process.env.ALLOC_TARGET ?? 'rest';
const N = Number(process.env.ALLOC_N ?? 3000);
const s = await startTestServer({ LOG_LEVEL: process.env.ALLOC_LOG ?? 'info', MODE: 'all' });
await seedHotTranscript(s.deps.sql);
const { key } = await s.newKey({ credits: 100, rateLimit: 1_000_000_000 });
const body =
  target === 'mcp'
    ? JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'get_video_subtitles', arguments: { videoId: HOT_VIDEO } },
      })
    : JSON.stringify({ videoId: HOT_VIDEO });
const path = target === 'mcp' ? '/mcp' : target === 'trpc' ? '/trpc/subtitles.get' : '/api/v1/subtitles';
const fire = (n: number) =>
  new Promise<void>((resolve, reject) => {
    const c = spawn(
      process.execPath,
      [
        'node_modules/autocannon/autocannon.js',
        '-c',
        '16',
        '-a',
        String(n),
        '-m',
        'POST',
        '-H',
        `authorization=Bearer ${key}`,
        '-H',
        'content-type=application/json',
        '-H',
        'accept=application/json, text/event-stream',
        '-b',
        body,
        `${s.url}${path}`,
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let err = '';
    c.stderr.on('data', (d) => (err += d));
    c.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(err))));
    if (process.env.ALLOC_VERBOSE) c.stderr.pipe(process.stderr);
  });
const probe = await fetch(`${s.url}${path}`, {
  method: 'POST',
  body,
  headers: {
    authorization: `Bearer ${key}`,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
  },
});
console.error('probe', probe.status, (await probe.text()).length);
await fire(2000);
const session = new Session();
session.connect();
await session.post('HeapProfiler.enable');
await session.post('HeapProfiler.collectGarbage');
const cpu0 = process.cpuUsage();
if (process.env.ALLOC_CPU) {
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  await fire(N);
  const { profile } = (await session.post('Profiler.stop')) as {
    profile: { nodes: CpuNode[]; samples: number[] };
  };
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfT = new Map<string, number>();
  const counts = new Map<number, number>();
  for (const id of profile.samples) counts.set(id, (counts.get(id) ?? 0) + 1);
  let all = 0;
  for (const [id, c] of counts) {
    const n = byId.get(id)!;
    const u = String(n.callFrame.url)
      .replace(/^.*node_modules\//, '')
      .replace(REPO_URL, '')
      .replace(/\/[^/]*$/, '');
    const k = n.callFrame.url ? u : n.callFrame.functionName;
    if (n.callFrame.functionName === '(idle)') continue;
    all += c;
    selfT.set(k, (selfT.get(k) ?? 0) + c);
  }
  console.log(`cpu: self time by package/folder (${all} samples)`);
  for (const [k, c] of [...selfT].sort((a, b) => b[1] - a[1]).slice(0, 30))
    console.log(`${((100 * c) / all).toFixed(1).padStart(5)} %  ${k}`);
  await s.close();
  process.exit(0);
}
await session.post('HeapProfiler.startSampling', {
  samplingInterval: 4096,
  includeObjectsCollectedByMajorGC: true,
  includeObjectsCollectedByMinorGC: true,
});
await fire(N);
const { profile } = (await session.post('HeapProfiler.stopSampling')) as { profile: { head: Node } };
const cpu = process.cpuUsage(cpu0);
const self = new Map<string, number>();
const stacks = new Map<string, number>();
let total = 0;
const short = (u: string) => u.replace(/^.*node_modules\//, '').replace(REPO_URL, '');
function walk(n: Node, path: string[]) {
  const f = `${n.callFrame.functionName || '(anon)'} ${short(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;
  const p = [...path, f];
  if (n.selfSize) {
    total += n.selfSize;
    self.set(f, (self.get(f) ?? 0) + n.selfSize);
    // The nearest frame in our own source, for attribution.
    const ours = [...p]
      .reverse()
      .filter((x) => x.includes(' src/'))
      .slice(0, 2)
      .join(' < ');
    const lib = [...p].reverse().find((x) => !x.includes(' src/') && x.includes('.'));
    const k = `${ours || '-'} | ${lib ?? ''}`;
    stacks.set(k, (stacks.get(k) ?? 0) + n.selfSize);
  }
  for (const c of n.children) walk(c, p);
}
walk(profile.head, []);
console.log(
  `${target}: ${N} requests, ${(total / N / 1024).toFixed(1)} KiB allocated/request (sampled), CPU ${((cpu.user + cpu.system) / 1000 / N).toFixed(3)} ms/request (server+profiler, in process)`,
);
const top = (m: Map<string, number>, k: number) =>
  [...m]
    .sort((a, b) => b[1] - a[1])
    .slice(0, k)
    .map(([f, b]) => `${(b / N / 1024).toFixed(1).padStart(7)} KiB  ${f}`)
    .join('\n');
console.log('--- self');
console.log(top(self, Number(process.env.ALLOC_TOP ?? 30)));
console.log('--- by nearest src frames | allocating lib frame');
console.log(top(stacks, Number(process.env.ALLOC_TOP ?? 30)));
await s.close();
process.exit(0);
