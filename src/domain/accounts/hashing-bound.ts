// Password hashing (scrypt, 32 MiB and tens of milliseconds each) runs on libuv's thread pool, the same 4 threads
// dns.lookup uses for every fetched URL's address check. Unbounded, a burst of sign-ins fills the pool and every
// address check waits behind it (bench/thread-pool.ts). Hashes run at most HASHES_AT_ONCE at a time, leaving the
// other threads to lookups; a bounded line waits, and past it a sign-in is refused at once (503 SERVICE_BUSY).
import { ServiceError } from '../errors.ts';

/** Hashes running at once: half of libuv's default pool of 4. */
export const HASHES_AT_ONCE = 2;
/** Hashes waiting for a place; beyond them a request is refused instead of queued. */
export const HASHES_WAITING = 32;

/** Runs work at most `atOnce` at a time, with at most `waiting` in line. */
export class BoundedWork {
  #running = 0;
  #peak = 0;
  readonly #line: (() => void)[] = [];
  readonly #atOnce: number;
  readonly #waiting: number;

  constructor(atOnce: number, waiting: number) {
    this.#atOnce = atOnce;
    this.#waiting = waiting;
  }

  /** The most that have run at once so far. */
  get peak(): number {
    return this.#peak;
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.#running >= this.#atOnce) {
      if (this.#line.length >= this.#waiting)
        throw new ServiceError('SERVICE_BUSY', 'Too many sign-ins are being checked right now; retry in a moment', 1);
      await new Promise<void>((resolve) => this.#line.push(resolve));
    } else this.#running++;
    this.#peak = Math.max(this.#peak, this.#running);
    try {
      return await work();
    } finally {
      const next = this.#line.shift();
      // The place passes straight to the next in line, so `running` never dips and refills out of order.
      if (next) next();
      else this.#running--;
    }
  }
}
