// Runs the signature/n-parameter functions youtubei.js extracts from YouTube's player script. That script is code
// from the network: it never runs through eval/new Function in our realm. It runs in a fresh node:vm context with
// no host objects (no require, process, fetch or URL of ours), under a CPU timeout, and only a JSON string crosses
// back, so no object from the sandbox reaches our code. (node:vm is not a hard security boundary, but with nothing
// of ours inside it, the player script has nothing to reach for.)
import vm from 'node:vm';
import type { Types } from 'youtubei.js';

type Evaluate = Types.PlatformShim['eval'];

const PLAYER_EVAL_TIMEOUT_MS = 2_000;

export function createPlayerEvaluator(timeoutMs = PLAYER_EVAL_TIMEOUT_MS): Evaluate {
  return (data) => {
    // youtubei.js builds `data.output` as a function body ending in `return process(...)` (what its docs run with
    // `new Function(data.output)()`); wrap it the same way, and serialise the {sig, n} result inside the sandbox.
    const source = `JSON.stringify((function () {\n${data.output}\n})())`;
    const context = vm.createContext(Object.create(null), { codeGeneration: { strings: false, wasm: false } });
    const json: unknown = vm.runInContext(source, context, { timeout: timeoutMs, filename: 'youtube-player.js' });
    if (typeof json !== 'string') throw new Error('player script returned no result');
    const result = JSON.parse(json) as Record<string, unknown>;
    return {
      sig: typeof result.sig === 'string' ? result.sig : undefined,
      n: typeof result.n === 'string' ? result.n : undefined,
    };
  };
}
