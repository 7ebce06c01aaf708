// Graceful shutdown: the service as it runs in production (a child process, `node --import tsx src/main.ts`), sent
// SIGTERM while requests and jobs are in flight. In-flight requests are answered, new connections are refused, the
// process exits 0 with "stopped" logged, and a job it still held is handed back to pg-boss for another worker.
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { connect as tcpConnect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/infra/database/free-port.ts';
import { connect, type Sql } from '../../db/client.ts';
import { sharedAvailable } from '../support/fixture-files.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { call, isErrorShape, newVideoId, note, relDatabase, startMixedYoutube, type MixedYoutube } from './support.ts';
import { createApiKey, ensureAccount, grantCredits } from '../support/stores.ts';

const REPO = new URL('../../', import.meta.url).pathname;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A TCP connection attempt on a fresh socket: 'refused' once nothing listens (never a pooled keep-alive socket). */
function tryConnect(port: number): Promise<'connected' | 'refused' | string> {
  return new Promise((resolve) => {
    const sock = tcpConnect({ port, host: '127.0.0.1' });
    sock.once('connect', () => {
      sock.destroy();
      resolve('connected');
    });
    sock.once('error', (err: NodeJS.ErrnoException) =>
      resolve(err.code === 'ECONNREFUSED' ? 'refused' : (err.code ?? String(err))),
    );
  });
}

interface Answer {
  status: number;
  json: any;
  text: string;
  /** Set when the connection failed instead of answering (reset, refused, socket hang up). */
  error?: string;
  /** When the answer (or the error) came. */
  at: number;
}

/**
 * A request whose body the client trickles: headers and half the body now, the rest when `finish` resolves. The
 * server has the request (its connection is busy, not idle) for as long as the client takes: an in-flight request
 * that no SIGTERM timing can miss.
 */
function slowBodyRequest(
  port: number,
  path: string,
  key: string,
  body: unknown,
  finish: Promise<void>,
): Promise<Answer> {
  const payload = Buffer.from(JSON.stringify(body));
  return new Promise((resolve) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        agent: false,
        headers: {
          'content-type': 'application/json',
          'content-length': payload.length,
          authorization: `Bearer ${key}`,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => {
          let json: any;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, json, text, at: Date.now() });
        });
        res.on('error', (err: NodeJS.ErrnoException) =>
          resolve({ status: 0, json: undefined, text: '', error: err.code ?? err.message, at: Date.now() }),
        );
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) =>
      resolve({ status: 0, json: undefined, text: '', error: err.code ?? err.message, at: Date.now() }),
    );
    const half = Math.floor(payload.length / 2);
    req.write(payload.subarray(0, half));
    void finish.then(() => req.end(payload.subarray(half)));
  });
}

const settled = async (p: Promise<{ status: number; json: any; text: string }>): Promise<Answer> =>
  p.then(
    (r) => ({ status: r.status, json: r.json, text: r.text, at: Date.now() }),
    (err: Error & { cause?: { code?: string } }) => ({
      status: 0,
      json: undefined,
      text: '',
      error: err.cause?.code ?? err.message,
      at: Date.now(),
    }),
  );

describe.skipIf(!sharedAvailable)('graceful shutdown', () => {
  let yt: MixedYoutube;
  let db: Awaited<ReturnType<typeof relDatabase>>;
  let sql: Sql;
  let child: ChildProcess | undefined;
  let other: TestServer | undefined;
  beforeAll(async () => {
    yt = await startMixedYoutube();
    db = await relDatabase();
    sql = connect(db.url, { max: 2 }).sql;
  });
  afterAll(async () => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await other?.close();
    await sql?.end({ timeout: 5 });
    await yt?.close();
    await db?.drop();
  });

  it('SIGTERM during load: in-flight requests are answered, new connections refused, exit 0, a held job goes to another worker', async () => {
    const port = await freePort();
    const REQUEST_WAIT_MS = 8_000;
    let output = '';
    child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: REPO,
      env: {
        ...process.env,
        MODE: 'all',
        PORT: String(port),
        HOST: '127.0.0.1',
        DATABASE_URL: db.url,
        YOUTUBE_BASE_URL: yt.origin,
        // Long enough that the held job is still running when the drain deadline comes: pg-boss, not a YouTube
        // timeout, is what hands it back.
        YOUTUBE_TIMEOUT_MS: '90000',
        REQUEST_WAIT_MS: String(REQUEST_WAIT_MS),
        EXTRACTION_CONCURRENCY: '8',
        DAILY_FREE_CREDITS: '0',
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (c: Buffer) => (output += c.toString('utf8')));
    child.stderr!.on('data', (c: Buffer) => (output += c.toString('utf8')));
    const exited = new Promise<{ code: number | null; signal: string | null; at: number }>((resolve) =>
      child!.once('exit', (code, signal) => resolve({ code, signal, at: Date.now() })),
    );
    for (let i = 0; i < 600 && !/listening on/.test(output) && child.exitCode === null; i++) await sleep(100);
    expect(output, output.slice(-2000)).toMatch(/listening on/);
    const base = `http://127.0.0.1:${port}`;

    const account = await ensureAccount(sql, `shutdown-${Date.now()}@example.com`);
    await grantCredits(sql, account.id, 200);
    const { key } = await createApiKey(sql, {
      accountId: account.id,
      name: 'shutdown',
      rateLimit: 1_000_000,
      expiresAt: null,
    });
    const cached = newVideoId('C');
    expect((await call(base, 'POST', '/api/v1/subtitles', { key, body: { videoId: cached } })).status).toBe(200);

    // In flight at SIGTERM: extractions whose caption download YouTube answers 3 s late, one whose caption download
    // never comes back (its job is still running when the instance stops), and cached requests whose bodies the
    // client is still sending.
    const slowIds = Array.from({ length: 4 }, () => newVideoId('S'));
    const heldId = newVideoId('H');
    let hold = true;
    yt.fault = (kind, id) =>
      kind !== 'timedtext'
        ? undefined
        : slowIds.includes(id)
          ? { delayMs: 3000 }
          : id === heldId && hold
            ? { hang: true }
            : undefined;
    const t0 = Date.now();
    const slow = slowIds.map((videoId) => settled(call(base, 'POST', '/api/v1/subtitles', { key, body: { videoId } })));
    const held = settled(call(base, 'POST', '/api/v1/subtitles', { key, body: { videoId: heldId } }));
    let finishBodies!: () => void;
    const bodiesDone = new Promise<void>((r) => (finishBodies = r));
    const trickled = Array.from({ length: 6 }, () =>
      slowBodyRequest(port, '/api/v1/subtitles', key, { videoId: cached }, bodiesDone),
    );
    for (let i = 0; i < 300 && [...slowIds, heldId].some((id) => yt.captions(id) < 1); i++) await sleep(50);
    expect([...slowIds, heldId].map((id) => yt.captions(id))).toEqual([1, 1, 1, 1, 1]);
    await sleep(200); // the trickled requests' headers have long arrived

    // The other worker instance, started now so that the held job is certainly the child's.
    other = await startTestServer({ MODE: 'worker', YOUTUBE_BASE_URL: yt.origin }, {}, { database: db });
    const [heldJob] = await sql<{ id: string; state: string }[]>`
      select id, state from pgboss.job where name = 'extract' and singleton_key like ${`tx:${heldId}%`}`;
    expect(heldJob?.state).toBe('active');

    const killedAt = Date.now();
    child.kill('SIGTERM');
    // A fresh TCP connection is refused once the listener is closed; poll for when that happens.
    let refusedAfter = -1;
    const probes: string[] = [];
    for (let i = 0; i < 100; i++) {
      const r = await tryConnect(port);
      probes.push(r);
      if (r === 'refused') {
        refusedAfter = Date.now() - killedAt;
        break;
      }
      await sleep(20);
    }
    const refusedLater = await tryConnect(port);
    hold = false; // the other worker's attempt gets its captions
    await sleep(500);
    finishBodies();

    const [slowAnswers, heldAnswer, trickledAnswers] = await Promise.all([
      Promise.all(slow),
      held,
      Promise.all(trickled),
    ]);
    const exit = await exited;
    const exitAfter = exit.at - killedAt;

    // The held job: back to `retry` when the child stopped, then run to completion by the other worker.
    let job: { state: string; retry_count: number; completed_on: Date | null } | undefined;
    for (let i = 0; i < 300; i++) {
      [job] = await sql<{ state: string; retry_count: number; completed_on: Date | null }[]>`
        select state, retry_count, completed_on from pgboss.job where id = ${heldJob!.id}`;
      if (job?.state === 'completed') break;
      await sleep(100);
    }
    const stored = (await sql`select 1 from transcripts where video_id = ${heldId}`).length > 0;
    const pickedUpAfter = job?.completed_on ? job.completed_on.getTime() - exit.at : NaN;

    const all: [string, Answer][] = [
      ...slowAnswers.map((a): [string, Answer] => ['extraction, captions 3 s late', a]),
      ['extraction, captions never answered', heldAnswer],
      ...trickledAnswers.map((a): [string, Answer] => ['cached, body still being sent', a]),
    ];
    const clean = (a: Answer) =>
      !a.error && (a.status === 200 || (a.status >= 400 && a.status !== 500 && isErrorShape(a.json)));
    const rows = new Map<string, number>();
    for (const [what, a] of all) {
      const k = `| ${what} | ${a.error ? `connection error ${a.error}` : `${a.status} ${a.json?.error?.code ?? ''}`.trim()} |`;
      rows.set(k, (rows.get(k) ?? 0) + 1);
    }
    const logLines = output.split('\n').filter((l) => /shutting down|stopped|"level":(40|50|60)/.test(l));

    note(
      '6. Graceful shutdown: SIGTERM during load',
      [
        `The service as a child process (\`node --import tsx src/main.ts\`, MODE=all, REQUEST_WAIT_MS=${REQUEST_WAIT_MS}), SIGTERM sent`,
        `${killedAt - t0} ms after ${all.length} requests were sent (${all.filter(([, a]) => a.at > killedAt).length} of them answered after the signal), with a second worker instance (MODE=worker) running.`,
        `A fresh TCP connection was refused ${refusedAfter} ms after the signal (probes before: ${probes.length - 1}; again later: ${refusedLater}).`,
        `The process exited ${exit.code === null ? `on signal ${exit.signal}` : `with code ${exit.code}`} ${(exitAfter / 1000).toFixed(1)} s after the signal, "stopped" logged: ${/"msg":"stopped"/.test(output)}.`,
        '',
        '| request in flight at SIGTERM | answer | count |',
        '| --- | --- | --- |',
        ...[...rows.entries()].map(([k, n]) => `${k} ${n} |`),
        '',
        `The never-answered extraction's job was still running at the drain deadline (20 s): pg-boss failed it back to \`retry\`, and the`,
        `other worker completed it ${Number.isFinite(pickedUpAfter) ? `${(pickedUpAfter / 1000).toFixed(1)} s after the child exited` : 'NEVER'} (state ${job?.state}, retry_count ${job?.retry_count};`,
        `caption downloads ${yt.captions(heldId)}; transcript stored: ${stored}). Shutdown order (src/main.ts): the HTTP listener closes and the`,
        'workers stop claiming at once; the process waits for in-flight requests and held jobs (at most 20 s for jobs), then closes the pools.',
      ].join('\n'),
    );

    expect(
      all.filter(([, a]) => !clean(a)).map(([w, a]) => `${w}: ${a.error ?? a.status} ${a.text.slice(0, 160)}`),
    ).toEqual([]);
    expect(all.filter(([, a]) => a.at <= killedAt).map(([w]) => w)).toEqual([]); // every one was in flight at the signal
    expect(slowAnswers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect(trickledAnswers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
    // Its job outlived the request's wait: a clean 503, as any request that waits too long gets.
    expect(heldAnswer.status).toBe(503);
    expect(heldAnswer.json?.error?.code).toBe('SERVICE_BUSY');
    expect(refusedAfter).toBeGreaterThanOrEqual(0);
    expect(refusedLater).toBe('refused');
    expect(exit.code, output.slice(-3000)).toBe(0);
    expect(output).toMatch(/"msg":"stopped"/);
    expect(logLines.filter((l) => /"level":(50|60)/.test(l))).toEqual([]);
    expect(job?.state).toBe('completed');
    expect(job?.retry_count).toBe(1);
    // Handed over at the drain deadline (pg-boss fails the held job back to retry), not before the signal.
    expect(job!.completed_on!.getTime()).toBeGreaterThan(killedAt);
    expect(stored).toBe(true);
    expect(yt.captions(heldId)).toBe(2);
  });
});
