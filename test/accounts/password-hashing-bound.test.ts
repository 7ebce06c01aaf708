// Password hashing shares libuv's thread pool with dns.lookup (every fetched URL's address check), so it has its own
// bound: at most HASHES_AT_ONCE hashes run at a time, at most HASHES_WAITING wait, and the next is refused at once
// with SERVICE_BUSY (503, Retry-After) instead of queueing without end (issue 37, item 4). Behaviour, not timing:
// the places are held by work the test ends itself.
import { describe, expect, it } from 'vitest';
import { HASHES_AT_ONCE, HASHES_WAITING } from '../../src/domain/accounts/hashing-bound.ts';
import { hashPassword, passwordHashing, verifyPassword } from '../../src/domain/accounts/password.ts';
import { isServiceError } from '../../src/domain/errors.ts';

const busy = (err: unknown) => isServiceError(err) && err.code === 'SERVICE_BUSY' && (err.retryAfter ?? 0) > 0;

describe('password hashing bound', { timeout: 60_000 }, () => {
  it('runs no more than its bound at once, keeps a bounded line, and refuses the overflow cleanly', async () => {
    let started = 0;
    const finish: (() => void)[] = [];
    const held = Array.from({ length: HASHES_AT_ONCE + HASHES_WAITING }, () =>
      passwordHashing.run(
        () =>
          new Promise<void>((resolve) => {
            started++;
            finish.push(resolve);
          }),
      ),
    );
    expect(started).toBe(HASHES_AT_ONCE);
    // The line is full: a real sign-in's hash is refused at once, not queued.
    await expect(hashPassword('a long enough password')).rejects.toSatisfy(busy);
    await expect(passwordHashing.run(async () => {})).rejects.toSatisfy(busy);

    // One ends: the first in line takes its place, never more than the bound.
    finish.shift()!();
    await expect.poll(() => started).toBe(HASHES_AT_ONCE + 1);
    expect(passwordHashing.peak).toBe(HASHES_AT_ONCE);
    while (started < held.length || finish.length > 0) {
      const next = finish.shift();
      if (next) next();
      await Promise.resolve();
      await new Promise<void>((r) => setImmediate(r));
    }
    await Promise.all(held);
    expect(passwordHashing.peak).toBe(HASHES_AT_ONCE);

    // Drained: hashing works again, through the same bound.
    const hash = await hashPassword('a long enough password');
    expect(await verifyPassword('a long enough password', hash)).toBe(true);
  });
});
