import { describe, expect, it } from 'vitest';
import { FailedInBatch, groupCommit } from './group-commit.ts';

/** A batch runner whose statements finish when the test says so. */
function manual() {
  const sent: { batch: number[]; finish(err?: Error): void }[] = [];
  const runBatch = (batch: number[]) =>
    new Promise<number[]>((resolve, reject) =>
      sent.push({ batch, finish: (err) => (err ? reject(err) : resolve(batch.map((n) => n * 10))) }),
    );
  return { sent, runBatch };
}
const turn = () => new Promise((r) => setImmediate(r));

describe('groupCommit', () => {
  it('sends the requests of one event-loop turn together and answers each with its own result', async () => {
    const { sent, runBatch } = manual();
    const g = groupCommit(runBatch);
    const answers = [1, 2, 3].map((n) => g.run(n));
    await turn();
    expect(sent.map((s) => s.batch)).toEqual([[1, 2, 3]]);
    sent[0]!.finish();
    expect(await Promise.all(answers)).toEqual([10, 20, 30]);
  });

  it('never adds to a batch already sent; waiting requests go in the next one when a slot frees', async () => {
    const { sent, runBatch } = manual();
    const g = groupCommit(runBatch, { maxInFlight: 1 });
    const first = g.run(1);
    await turn();
    const later = [2, 3].map((n) => g.run(n));
    await turn();
    expect(sent.map((s) => s.batch)).toEqual([[1]]);
    sent[0]!.finish();
    expect(await first).toBe(10);
    await turn();
    expect(sent.map((s) => s.batch)).toEqual([[1], [2, 3]]);
    sent[1]!.finish();
    expect(await Promise.all(later)).toEqual([20, 30]);
  });

  it('runs up to maxInFlight batches at once and caps a batch at maxBatch', async () => {
    const { sent, runBatch } = manual();
    const g = groupCommit(runBatch, { maxInFlight: 2, maxBatch: 2 });
    const answers = [1, 2, 3, 4, 5].map((n) => g.run(n));
    await turn();
    expect(sent.map((s) => s.batch)).toEqual([
      [1, 2],
      [3, 4],
    ]);
    sent[1]!.finish();
    await turn();
    await turn();
    expect(sent.map((s) => s.batch)).toEqual([[1, 2], [3, 4], [5]]);
    sent[0]!.finish();
    sent[2]!.finish();
    expect(await Promise.all(answers)).toEqual([10, 20, 30, 40, 50]);
  });

  it('a failed batch rejects each of its requests and leaves the next batch unaffected', async () => {
    const { sent, runBatch } = manual();
    const g = groupCommit(runBatch, { maxInFlight: 1 });
    const failed = [g.run(1), g.run(2)];
    await turn();
    const next = g.run(3);
    sent[0]!.finish(new Error('connection reset'));
    await expect(Promise.all(failed)).rejects.toThrow('connection reset');
    await expect(failed[1]).rejects.toThrow('connection reset');
    await turn();
    sent[1]!.finish();
    expect(await next).toBe(30);
  });

  it('a request whose own part of the batch failed is rejected alone', async () => {
    const g = groupCommit(async (batch: number[]) =>
      batch.map((n) => (n === 2 ? new FailedInBatch(new Error('window 2 failed')) : n * 10)),
    );
    const answers = [1, 2, 3].map((n) => g.run(n));
    await expect(answers[1]).rejects.toThrow('window 2 failed');
    expect(await answers[0]).toBe(10);
    expect(await answers[2]).toBe(30);
  });
});
