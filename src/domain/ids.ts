import { randomFillSync } from 'node:crypto';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz'; // Crockford base32, lower case

// Randomness drawn 4 KiB at a time: one call into the CSPRNG per request was a tenth of a small request's
// synchronous work. Each byte is handed out once.
const pool = Buffer.alloc(4096);
let used = pool.length;

function randomChars(n: number): string {
  if (used + n > pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  let out = '';
  for (let i = used; i < used + n; i++) out += ALPHABET[pool[i]! % 32];
  used += n;
  return out;
}

/** Prefixed, time-sortable ids: `key_01jc...`. 10 chars of milliseconds, 16 of randomness. */
export function newId(prefix: string, now = Date.now()): string {
  let time = '';
  let t = now;
  for (let i = 0; i < 10; i++) {
    time = ALPHABET[t % 32] + time;
    t = Math.floor(t / 32);
  }
  return `${prefix}_${time}${randomChars(16)}`;
}
