import { assertAffordable } from '../credits/charged-operation.ts';
import { isServiceError } from '../errors.ts';

/**
 * Whether the caller's balance covers `price`: a lookup for a caller who can pay for what it is for takes no free
 * lookup. Any refusal other than INSUFFICIENT_CREDITS is thrown.
 */
export async function coversPrice(
  ports: Parameters<typeof assertAffordable>[0],
  accountId: string,
  price: number,
  dailyAllowance: number,
): Promise<boolean> {
  try {
    await assertAffordable(ports, accountId, price, dailyAllowance);
    return true;
  } catch (err) {
    if (!isServiceError(err) || err.code !== 'INSUFFICIENT_CREDITS') throw err;
    return false;
  }
}
