// Password hashing and dns.lookup share libuv's thread pool (4 threads by default): address checks of fetched URLs
// (media, callbacks) measured alone, beside a flood of unbounded scrypt hashes (what sign-in did before), and beside
// the same flood through the hashing bound (src/domain/accounts/hashing-bound.ts).
import { scrypt } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import { hashPassword } from '../src/domain/accounts/password.ts';
import type { BenchSection } from './support.ts';

const LOOKUPS = 60;
const FLOOD = 32;

const rawHash = () =>
  new Promise<void>((resolve, reject) =>
    scrypt('a password', 'salt', 32, { N: 2 ** 15, r: 8, p: 3, maxmem: 64 * 1024 * 1024 }, (err) =>
      err ? reject(err) : resolve(),
    ),
  );

/** Address-check latencies (ms) while `flood` keeps FLOOD hashes asked for at once. */
async function lookupsBeside(flood: (() => Promise<unknown>) | null): Promise<number[]> {
  let stop = false;
  const floods = flood
    ? Array.from({ length: FLOOD }, async () => {
        while (!stop) await flood().catch(() => {});
      })
    : [];
  const times: number[] = [];
  for (let i = 0; i < LOOKUPS; i++) {
    const t0 = performance.now();
    await lookup('localhost');
    times.push(performance.now() - t0);
  }
  stop = true;
  await Promise.all(floods);
  return times.sort((a, b) => a - b);
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
const ms = (n: number) => n.toFixed(1);

export async function run(): Promise<BenchSection[]> {
  const rows: [string, number[]][] = [
    ['alone', await lookupsBeside(null)],
    [`beside ${FLOOD} sign-ins at once, unbounded hashing (before)`, await lookupsBeside(rawHash)],
    [
      `beside ${FLOOD} sign-ins at once, at most 2 hashes at a time (after)`,
      await lookupsBeside(() => hashPassword('a password')),
    ],
  ];
  const markdown = [
    `\`dns.lookup('localhost')\` ${LOOKUPS} times in a row (libuv's pool, as every fetched URL's address check), scrypt N=2^15 r=8 p=3 as sign-in uses; UV_THREADPOOL_SIZE ${process.env.UV_THREADPOOL_SIZE ?? 'unset (4)'}.`,
    '',
    '| Address checks | p50 ms | p99 ms |',
    '|---|---:|---:|',
    ...rows.map(([name, t]) => `| ${name} | ${ms(pct(t, 0.5))} | ${ms(pct(t, 0.99))} |`),
  ].join('\n');
  return [{ title: 'Thread pool: sign-in hashing beside address checks', markdown }];
}
