// A speech-to-text result is charged once even when two jobs finish it: a pg-boss retry running next to the first
// run (its heartbeat missed), or two keys (no language hint, and "en") storing the same (video, en, speech) row.
// Both runs are driven through the domain function against the real database and the loopback engine, held so
// that each has read the waiting tasks before either commits.
import { reserveCredits } from '../../src/domain/credits/holds.ts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { speechPrice } from '../../src/domain/pricing/prices.ts';
import { speechKey } from '../../src/domain/speech/request-speech.ts';
import { runSpeechJob } from '../../src/domain/speech/speech-job.ts';
import { sharedAvailable } from '../support/fixture-files.ts';
import { audioAvailable } from '../support/speech-audio.ts';
import {
  resetSpeechStack,
  SPEECH_VIDEOS,
  startSpeechStack,
  type SpeechStack,
  type SpeechYoutube,
} from '../support/speech-youtube.ts';
import { heldJobs } from '../support/held-jobs.ts';
import type { TestServer } from '../support/test-server.ts';

const run = audioAvailable && sharedAvailable;
if (process.env.CI && !run) throw new Error('the shared YouTube and audio fixtures are needed in CI');

let stack: SpeechStack;
let yt: SpeechYoutube;
let s: TestServer;
beforeAll(async () => {
  if (!run) return;
  stack = await startSpeechStack();
  ({ yt, s } = stack);
}, 120_000);
afterAll(() => stack?.close());
beforeEach(async () => {
  if (run) await resetSpeechStack(stack);
});

const { noCaptions } = SPEECH_VIDEOS;

async function newTask(accountId: string, key: string, lang: string | null) {
  const task = await s.deps.jobs.create({
    accountId,
    kind: 'transcription',
    input: { videoId: noCaptions, lang },
    requestId: `req_${key}_${accountId}`,
    jobKey: key,
  });
  // Its request held the estimate before enqueuing, as every request does.
  const hold = { accountId, amount: 1, operation: 'speech', requestId: task.requestId, jobId: task.id };
  await reserveCredits(s.deps, { ...hold, videoId: noCaptions, job: { queue: 'speech', key } }, 0);
  return task;
}

const charges = (...accountIds: string[]) =>
  s.deps.sql<{ account_id: string; delta: number }[]>`
    select account_id, delta from credit_ledger
    where account_id in ${s.deps.sql(accountIds)} and video_id = ${noCaptions} and kind = 'charge' and operation = 'speech' order by id`;

const taskRow = (id: string) =>
  s.deps.sql<
    { status: string; credits_charged: number }[]
  >`select status, credits_charged from tasks where id = ${id}`.then((r) => r[0]);

describe.skipIf(!run)('a speech-to-text result finished twice', { timeout: 120_000 }, () => {
  it('a retry running beside the first run (same key, same task): one charge, the task succeeded with it', async () => {
    const { accountId } = await s.newKey({ credits: 50 });
    const key = speechKey(noCaptions, null);
    const task = await newTask(accountId, key, null);
    const job = { kind: 'speech' as const, key, jobId: task.id, videoId: noCaptions, lang: null };
    const deps = { ...s.deps, jobs: heldJobs(s.deps.jobs, 2) };

    const runs = await Promise.allSettled([runSpeechJob(deps, job), runSpeechJob(deps, job)]);
    expect(runs.filter((r) => r.status === 'fulfilled').length).toBeGreaterThanOrEqual(1);
    const price = speechPrice(yt.programme.seconds);
    expect(await charges(accountId)).toEqual([{ account_id: accountId, delta: -price }]);
    expect(await taskRow(task.id)).toEqual({ status: 'succeeded', credits_charged: price });
  });

  it('two keys storing the same (video, en) transcript: one payer charged, the other served free', async () => {
    const a = await s.newKey({ credits: 50 });
    const b = await s.newKey({ credits: 50 });
    const keyA = speechKey(noCaptions, null);
    const keyB = speechKey(noCaptions, 'en');
    const taskA = await newTask(a.accountId, keyA, null);
    const taskB = await newTask(b.accountId, keyB, 'en');
    const deps = { ...s.deps, jobs: heldJobs(s.deps.jobs, 2) };

    await Promise.all([
      runSpeechJob(deps, { kind: 'speech', key: keyA, jobId: taskA.id, videoId: noCaptions, lang: null }),
      runSpeechJob(deps, { kind: 'speech', key: keyB, jobId: taskB.id, videoId: noCaptions, lang: 'en' }),
    ]);
    const price = speechPrice(yt.programme.seconds);
    const charged = await charges(a.accountId, b.accountId);
    expect(charged).toHaveLength(1);
    expect(charged[0]!.delta).toBe(-price);
    const [rowA, rowB] = [await taskRow(taskA.id), await taskRow(taskB.id)];
    expect([rowA!.status, rowB!.status]).toEqual(['succeeded', 'succeeded']);
    expect(rowA!.credits_charged + rowB!.credits_charged).toBe(price);
    expect(charged[0]!.account_id).toBe(rowA!.credits_charged === price ? a.accountId : b.accountId);
  });
});
