// In-process PO token minting with bgutils-js and jsdom, in a worker thread of its own (bgutils-worker.ts): the DOM
// globals BotGuard needs and the interpreter script YouTube sends stay out of the service's realm. The worker
// keeps one minter per egress identity (its page, fetched through that identity's proxy) for the integrity token's
// lifetime; token-cache.ts keeps one token per identity and video on this side.
// The HTTP provider (a bgutil-ytdlp-pot-provider container) does the same work out of process and is the one to
// prefer in production.
import { Worker } from 'node:worker_threads';
import type { MintedToken, PoTokenProvider } from '../../../domain/youtube/po-token.ts';
import type { WorkerAnswer, WorkerRequest, WorkerSettings } from './bgutils-worker.ts';

export interface InProcessProvider extends PoTokenProvider {
  close(): Promise<void>;
}

export function createInProcessTokenProvider(settings: {
  baseUrl?: string;
  /** The proxy URL of an egress identity (none: direct): the page and BotGuard's requests leave through it. */
  proxyFor?: (identity: string) => string | undefined;
  timeoutMs?: number;
}): InProcessProvider {
  const timeoutMs = settings.timeoutMs ?? 30_000;
  const workerSettings: WorkerSettings = { baseUrl: settings.baseUrl, timeoutMs };
  // Sources run as .ts (type stripping) or, in the image, compiled to .js beside this file.
  const script = new URL(`./bgutils-worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url);
  let worker: Worker | undefined;
  let next = 0;
  const pending: PendingMints = new Map();
  const start = () => {
    const w = new Worker(script, { workerData: workerSettings });
    w.unref();
    w.on('message', (answer: WorkerAnswer) => settleMint(pending, answer));
    // A crashed worker is replaced on the next mint.
    const gone = (error: Error) => {
      if (worker === w) worker = undefined;
      failMints(pending, error, w);
    };
    w.on('error', (e) => gone(new Error(`in-process PO token worker failed: ${e.message}`)));
    w.on('exit', (code) => gone(new Error(`in-process PO token worker exited (${code})`)));
    return w;
  };
  return {
    kind: 'bgutils',
    mint(videoId, signal, identity) {
      signal?.throwIfAborted();
      const w = (worker ??= start());
      const id = ++next;
      return new Promise<MintedToken>((resolve, reject) => {
        // Challenge, snapshot and integrity token take a few seconds at most; a wedged VM must not hold callers.
        // The worker is ended too: one that never returns (a script in a loop) would hold every later mint.
        const timer = setTimeout(() => {
          pending.delete(id);
          reject(new Error(`in-process PO token minting took longer than ${timeoutMs} ms`));
          if (worker === w) worker = undefined;
          void w.terminate();
        }, timeoutMs * 2);
        pending.set(id, { resolve, reject, timer, worker: w });
        const request: WorkerRequest = { id, videoId, proxyUrl: identity ? settings.proxyFor?.(identity) : undefined };
        w.postMessage(request);
      });
    },
    async close() {
      const w = worker;
      worker = undefined;
      failMints(pending, new Error('PO token provider closed'));
      await w?.terminate();
    },
  };
}

type PendingMints = Map<
  number,
  { resolve: (t: MintedToken) => void; reject: (e: Error) => void; timer: NodeJS.Timeout; worker: Worker }
>;

function settleMint(pending: PendingMints, answer: WorkerAnswer): void {
  const p = pending.get(answer.id);
  if (!p) return;
  pending.delete(answer.id);
  clearTimeout(p.timer);
  if ('error' in answer) p.reject(new Error(`in-process PO token minting failed: ${answer.error}`));
  else {
    const { id: _id, expiresAt, ...minted } = answer;
    p.resolve({ ...minted, expiresAt: new Date(expiresAt) });
  }
}

/** Fails the mints `w` was asked for (every one without `w`): a replaced worker's exit is not its successor's. */
function failMints(pending: PendingMints, error: Error, w?: Worker): void {
  for (const [id, p] of pending) {
    if (w && p.worker !== w) continue;
    clearTimeout(p.timer);
    p.reject(error);
    pending.delete(id);
  }
}
