import { startInvariantStack } from './stack.ts';
import { makeAccounts } from './program.ts';
import postgres from 'postgres';
const stack = await startInvariantStack();
const accounts = await makeAccounts(stack);
const vids = ['GJLlxj_dtq8', 'F1xioXWb8CY', 'ud9d5cMDP_0', 'cJ9to6EmElQ'];
const langs = ['en', 'de', 'fr', 'es', 'it', 'pt', 'nl'];
let stop = false;
const blipper = (async () => {
  while (!stop) {
    const admin = postgres(stack.databaseUrl, { max: 1 });
    await admin`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`.catch(
      () => {},
    );
    await admin.end({ timeout: 1 });
    await new Promise((r) => setTimeout(r, 150 + Math.random() * 400));
  }
})();
const statuses: Record<string, number> = {};
const until = Date.now() + 40_000;
await Promise.all(
  Array.from({ length: 6 }, async (_, lane) => {
    let i = 0;
    while (Date.now() < until) {
      i++;
      const a = accounts[0]!;
      const surface = (['rest', 'trpc', 'mcp'] as const)[i % 3]!;
      const kind = i % 2 ? 'translate' : 'summary';
      const input =
        kind === 'translate'
          ? {
              videoId: vids[(i + lane) % 4],
              sourceLang: 'en',
              targetLang: langs[(i * 7 + lane) % 7],
              callbackUrl: stack.receiver.url,
            }
          : { videoId: vids[(i + lane) % 4], lang: langs[(i * 3 + lane) % 7], callbackUrl: stack.receiver.url };
      try {
        const r = await a.caller.call(surface, kind, input);
        statuses[`${kind} ${r.status}`] = (statuses[`${kind} ${r.status}`] ?? 0) + 1;
        if (r.status >= 500 && r.status !== 503) console.log('FIVEHUNDRED', surface, kind, r.text.slice(0, 300));
      } catch (e) {
        console.log('THREW', (e as Error).message);
      }
    }
  }),
);
stop = true;
await blipper;
console.log(statuses);
await stack.close();
process.exit(0);
