// `subscriptions/listen` streams stay open until the client leaves (about 9 KB and a file descriptor each): each key
// may hold MCP_LISTEN_STREAMS_PER_KEY of them and each account MCP_LISTEN_STREAMS_PER_ACCOUNT, on this instance; a
// place is freed when its stream ends, however it ends (closed by the client, cancelled, the instance stopping).
import type { Caller } from '../../domain/keys/caller.ts';

type Limits = { perKey: number; perAccount: number };

/** The open listen streams of one MCP endpoint, counted per key and per account. */
export class ListenStreams {
  readonly #perKey = new Map<string, number>();
  readonly #perAccount = new Map<string, number>();

  /** A place for one more stream of `caller` (its release), or why there is none. */
  take(caller: Caller, limits: Limits): (() => void) | { refused: string } {
    const keyHeld = this.#perKey.get(caller.keyId) ?? 0;
    const accountHeld = this.#perAccount.get(caller.accountId) ?? 0;
    if (keyHeld >= limits.perKey)
      return {
        refused: `This key already has ${keyHeld} open listen streams (at most ${limits.perKey}); close one first`,
      };
    if (accountHeld >= limits.perAccount)
      return {
        refused: `This account already has ${accountHeld} open listen streams (at most ${limits.perAccount}); close one first`,
      };
    bump(this.#perKey, caller.keyId, 1);
    bump(this.#perAccount, caller.accountId, 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      bump(this.#perKey, caller.keyId, -1);
      bump(this.#perAccount, caller.accountId, -1);
    };
  }
}

function bump(counts: Map<string, number>, id: string, by: number): void {
  const n = (counts.get(id) ?? 0) + by;
  if (n <= 0) counts.delete(id);
  else counts.set(id, n);
}

/** The response with `release` called once its stream ends or is cancelled; at once when it is not a stream. */
export function releasedWhenEnded(response: Response, release: () => void, signal: AbortSignal): Response {
  const body = response.body;
  if (!body || !response.headers.get('content-type')?.startsWith('text/event-stream')) {
    release();
    return response;
  }
  signal.addEventListener('abort', release, { once: true });
  const reader = body.getReader();
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { value, done } = await reader.read();
        if (done) {
          release();
          controller.close();
        } else controller.enqueue(value);
      } catch (err) {
        release();
        controller.error(err);
      }
    },
    cancel(reason) {
      release();
      return reader.cancel(reason);
    },
  });
  return new Response(stream, { status: response.status, headers: response.headers });
}
