// What a speech-to-text job may spend: the audio the best-funded requester waiting on it can pay for. Media
// metadata (a playlist's #EXTINF, a container's duration) is the caller's to forge, so the request's estimate only
// admits the job; the job itself is bounded by the balances, asked again before every chunk goes to the engine
// (the operator may pay a hosted engine per minute, and a balance can be spent elsewhere meanwhile).
import { getCredits } from '../credits/credits.ts';
import { ServiceError } from '../errors.ts';
import { SPEECH_PRICE_PER_MINUTE, speechPrice } from '../pricing/prices.ts';
import type { Stores } from '../stores.ts';
import type { SpeechBudget } from './transcribe-audio.ts';

export type BudgetPorts = Pick<Stores, 'jobs' | 'ledger'>;

/**
 * The most any requester waiting on `key` with credits held for it can spend now: its hold plus what it can still
 * spend (0 when nobody waits, or nobody's credits are held: the job is not paid for).
 */
async function bestBalance(deps: BudgetPorts, key: string, dailyAllowance: number): Promise<number> {
  const waiting = await deps.jobs.waiting(key);
  const holds = await deps.ledger.jobHolds(waiting.map((row) => row.id));
  let best = 0;
  for (const row of waiting) {
    const hold = holds.get(row.id);
    if (!hold) continue;
    const credits = await getCredits(deps, row.accountId, dailyAllowance).catch(() => null);
    best = Math.max(best, hold.amount + (credits?.available ?? 0));
  }
  return best;
}

/** Seconds of audio `credits` pay for (whole minutes: the price is per started minute). */
const coveredSeconds = (credits: number) => Math.floor(credits / SPEECH_PRICE_PER_MINUTE) * 60;

/**
 * The budget of the job behind `key`. Throws 402 at once when nobody waiting can pay for a minute, so nothing is
 * even decoded.
 */
export async function speechBudget(deps: BudgetPorts, key: string, dailyAllowance: number): Promise<SpeechBudget> {
  const balance = await bestBalance(deps, key, dailyAllowance);
  if (coveredSeconds(balance) <= 0) throw uncovered(null, balance);
  return {
    seconds: coveredSeconds(balance),
    async assertCovers(decoded) {
      const now = await bestBalance(deps, key, dailyAllowance);
      if (speechPrice(decoded) > now) throw uncovered(decoded, now);
    },
  };
}

const uncovered = (decoded: number | null, balance: number) =>
  new ServiceError(
    'INSUFFICIENT_CREDITS',
    (decoded === null
      ? `Speech-to-text costs ${SPEECH_PRICE_PER_MINUTE} credit${SPEECH_PRICE_PER_MINUTE === 1 ? '' : 's'} per started minute of audio; the balance is ${balance}. `
      : `The audio runs longer than the balance (${balance} credit${balance === 1 ? '' : 's'}) pays for: ` +
        `at least ${Math.floor(decoded)} s decoded, ${speechPrice(decoded)} credits. `) +
      'Speech-to-text is priced by the audio decoded, not by what the media claims; nothing was sent to the engine, nothing was stored and nothing was charged.',
  );
