// Random programs of operations from three accounts, run with several in flight at once, and what each answer
// taught us (who asked for which video, whose batches and jobs exist, what each request said it charged), which the
// checks in checks.ts then hold the database and the APIs to.
import fc from 'fast-check';
import postgres from 'postgres';
import { isDatabaseDown } from '../../db/database-errors.ts';
import { mediaIdOf } from '../../src/domain/video/video-ref.ts';
import { ID } from '../transcripts/recorded-youtube.ts';
import { grantCredits } from '../support/stores.ts';
import { sessionClient } from '../web/session-client.ts';
import { hole } from './known-holes.ts';
import type { InvariantStack } from './stack.ts';
import { type Answer, Caller, type Surface } from './surfaces.ts';

/** Captioned videos and the language of each one's default track (what a batch translation translates from). */
const CAPTIONED: Record<string, string> = {
  [ID.captions9]: 'en',
  [ID.manualAndAsr]: 'en',
  [ID.manualOnlyDe]: 'de',
  [ID.asrOnlyFr]: 'fr',
};
/** Videos whose transcript fails upstream (no such video, private). */
const FAILING = [ID.nonexistent, ID.private];
const VIDEOS = [...Object.keys(CAPTIONED), ...FAILING];
const LANGS = ['en', 'de', 'fr'];
/**
 * Purchased credits of the three accounts on top of the daily allowance: plenty, a little, none. "Plenty" grows with
 * a long program's size (a credit per operation), so its first account still pays its way to the end.
 */
export const grantsFor = (size: number) => [Math.max(40, size), 8, 0];

export interface Account {
  index: number;
  accountId: string;
  key: string;
  caller: Caller;
  session: ReturnType<typeof sessionClient>;
  /** Private to the account: its media token, API key, webhook signing secret. */
  secrets: string[];
  mediaUrl: string;
  brokenUrl: string;
}

type Who = { who: number; surface: Surface };
export type Op = Who &
  (
    | { kind: 'transcript'; video: string; lang?: string; callback: boolean }
    | { kind: 'frames'; broken: boolean; timestamps: number[]; width: number }
    | { kind: 'speech'; broken: boolean; callback: boolean }
    | { kind: 'translate'; video: string; sourceLang: string; targetLang: string; callback: boolean }
    | { kind: 'summary'; video: string; lang: string; callback: boolean }
    | { kind: 'batch'; videos: string[]; operation: Record<string, string> }
    | { kind: 'cancel'; pick: number }
    | { kind: 'peek'; pick: number; what: 'job' | 'batch' | 'media' }
    | { kind: 'dbBlip' }
    | { kind: 'killWorker' }
  );

const who = { who: fc.integer({ min: 0, max: 2 }), surface: fc.constantFrom<Surface>('rest', 'trpc', 'mcp') };
const video = fc.constantFrom(...VIDEOS);
const lang = fc.constantFrom(...LANGS);

const batchOperation = fc.oneof(
  fc.constant({ type: 'transcript' }),
  lang.map((l) => ({ type: 'article', lang: l })),
  lang.map((l) => ({ type: 'translation', targetLang: l })),
);

const opArbitrary: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      ...who,
      kind: fc.constant('transcript' as const),
      video,
      lang: fc.option(lang, { nil: undefined }),
      callback: fc.boolean(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      ...who,
      kind: fc.constant('frames' as const),
      // Few distinct timestamps: later programs find most frames stored (the free path) and capture a few anew.
      broken: fc.integer({ min: 0, max: 4 }).map((n) => n === 0),
      timestamps: fc.array(fc.constantFrom(1, 2, 3, 5, 8), { minLength: 1, maxLength: 3 }),
      width: fc.constantFrom(160, 320),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      ...who,
      kind: fc.constant('speech' as const),
      broken: fc.boolean(),
      callback: fc.boolean(),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      ...who,
      kind: fc.constant('translate' as const),
      video,
      sourceLang: lang,
      targetLang: lang,
      callback: fc.boolean(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ ...who, kind: fc.constant('summary' as const), video, lang, callback: fc.boolean() }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      ...who,
      kind: fc.constant('batch' as const),
      videos: fc.uniqueArray(video, { minLength: 1, maxLength: 3 }),
      operation: batchOperation,
    }),
  },
  { weight: 2, arbitrary: fc.record({ ...who, kind: fc.constant('cancel' as const), pick: fc.nat() }) },
  // The database briefly unavailable: every connection of the service (API, workers, queue) is cut at once.
  { weight: 1, arbitrary: fc.record({ ...who, kind: fc.constant('dbBlip' as const) }) },
  // A worker killed at whatever point its jobs are (test/support/killable-worker.ts), and a new one started.
  { weight: 1, arbitrary: fc.record({ ...who, kind: fc.constant('killWorker' as const) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      ...who,
      kind: fc.constant('peek' as const),
      pick: fc.nat(),
      what: fc.constantFrom<'job' | 'batch' | 'media'>('job', 'batch', 'media'),
    }),
  },
) as fc.Arbitrary<Op>;

/** Whether the generator steers around this operation while a confirmed finding is open (see known-holes.ts). */
function avoidedByKnownHole(op: Op): boolean {
  // Finding 2: a batch translation into a language that one of its videos' transcripts already has.
  if (hole(2) && op.kind === 'batch' && op.operation.type === 'translation')
    return op.videos.some((v) => CAPTIONED[v] === op.operation.targetLang);
  // Finding 11: the same timestamp twice in one POST /frames.
  if (hole(11) && op.kind === 'frames') return new Set(op.timestamps).size !== op.timestamps.length;
  // New: a database blip may crash the service (known-holes.ts).
  if (hole('db-restart-crash') && op.kind === 'dbBlip') return true;
  return false;
}

export const programArbitrary = (size: number) =>
  fc.array(
    opArbitrary.filter((op) => !avoidedByKnownHole(op)),
    { minLength: size, maxLength: size },
  );

/** What a program did, for the checks. */
export interface Log {
  /** accountId -> video and media ids it asked for in any way. */
  asked: Map<string, Set<string>>;
  batches: { id: string; owner: number; callback: boolean }[];
  jobs: { id: string; owner: number; callback: boolean }[];
  /** Batches whose owner asked to cancel them. */
  cancelledByOwner: Set<string>;
  /** Synchronous answers that said what they charged. */
  charged: { op: Op; answer: Answer; credits: number }[];
  answers: { who: number; op: string; answer: Answer }[];
  violations: string[];
  operations: number;
  /** Database blips started so far; an operation that overlapped one may answer 503. */
  blips: number;
  /** Milliseconds spent per kind of operation (where a long run's time goes). */
  spent: Record<string, number>;
  /** Calls the model and the speech engine received (over the whole service so far), holds closed by this program. */
  paidWork: PaidWork;
}

export interface PaidWork {
  modelCalls: number;
  engineCalls: number;
  holdsSettled: number;
  holdsReleased: number;
}

/** `asked` is kept across the programs run on one service: what is stored stays stored, and so does who asked. */
export function newLog(asked: Log['asked'] = new Map()): Log {
  return {
    asked,
    batches: [],
    jobs: [],
    cancelledByOwner: new Set(),
    charged: [],
    answers: [],
    violations: [],
    operations: 0,
    blips: 0,
    spent: {},
    paidWork: { modelCalls: 0, engineCalls: 0, holdsSettled: 0, holdsReleased: 0 },
  };
}

let accountCounter = 0;

/** Three accounts signed up on the website (so their webhook pages can be read), each with a key and a media URL. */
export async function makeAccounts(stack: InvariantStack, grants = grantsFor(0)): Promise<Account[]> {
  return Promise.all(
    grants.map(async (credits, index) => {
      const session = sessionClient(stack.s.url);
      const email = `inv-${process.pid}-${++accountCounter}-${Date.now()}@example.com`;
      // A database blip of the previous program may still be settling: a client retries a 503 once the database
      // answers again (awaited with a query, not a timer).
      let up = await session.signUp(email);
      for (let i = 0; i < 5 && up.status === 503; i++) {
        await stack.s.deps.sql`select 1`;
        up = await session.signUp(email);
      }
      if (up.status !== 200) throw new Error(`sign-up: ${JSON.stringify(up.json)}`);
      const key = (await session.mutate('keys.create', { name: 'invariants' })).json.result.data.key as string;
      const [row] = await stack.s.deps.sql<{ id: string }[]>`select id from accounts where email = ${email}`;
      const accountId = row!.id;
      if (credits) await grantCredits(stack.s.deps.sql, accountId, credits);
      const secret = (await session.query('webhooks.settings', {})).json.result.data.secret as string;
      // One token per slot for the service's life: later programs' accounts in the same slot reuse the media URL, so
      // its frames and transcript are stored (served free), while the other two slots' URLs stay secret from it.
      stack.tokens[index] ??= `tok${index}x${Math.random().toString(36).slice(2, 12)}`;
      const token = stack.tokens[index];
      return {
        index,
        accountId,
        key,
        caller: new Caller(stack.s.url, key),
        session,
        secrets: [token, key, secret],
        mediaUrl: new URL(stack.files.url(`/talk.mp4?token=${token}`)).href,
        brokenUrl: new URL(stack.files.url(`/broken.mp4?token=${token}`)).href,
      };
    }),
  );
}

/** Longer than any one operation may take: its calls time out at 60 s, a worker restart is retried 5 times. */
const OP_TIMEOUT_MS = 180_000;

/** Runs `program` with up to `width` operations in flight at once. */
export async function runProgram(
  stack: InvariantStack,
  accounts: Account[],
  program: Op[],
  log: Log,
  width: number,
): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < program.length) {
      const op = program[next++]!;
      const t0 = Date.now();
      let timer: NodeJS.Timeout | undefined;
      // An operation that never ends is a violation too (a hang), and must not stall the rest of the run.
      const hung = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no end after ${OP_TIMEOUT_MS / 1000} s`)), OP_TIMEOUT_MS);
      });
      try {
        await Promise.race([runOp(stack, accounts, op, log), hung]);
      } catch (e) {
        log.violations.push(`operation ${JSON.stringify(op)} threw: ${(e as Error).message}`);
      } finally {
        clearTimeout(timer);
      }
      log.operations++;
      const kind = 'broken' in op && op.broken ? `${op.kind} (broken)` : op.kind;
      log.spent[kind] = (log.spent[kind] ?? 0) + Date.now() - t0;
    }
  };
  await Promise.all(Array.from({ length: width }, lane));
}

function ask(log: Log, accountId: string, ...ids: string[]) {
  const set = log.asked.get(accountId) ?? new Set<string>();
  for (const id of ids) set.add(id);
  log.asked.set(accountId, set);
}

export function record(log: Log, who: number, op: string, answer: Answer) {
  log.answers.push({ who, op, answer });
  if (answer.status >= 500 && answer.status !== 503)
    log.violations.push(`${op} on ${answer.surface} answered ${answer.status}: ${answer.text.slice(0, 300)}`);
}

async function runOp(stack: InvariantStack, accounts: Account[], op: Op, log: Log): Promise<void> {
  const me = accounts[op.who]!;
  const callback = (on: boolean) => (on ? { callbackUrl: stack.receiver.url } : {});
  const call = async (name: Parameters<Caller['call']>[1], input: Record<string, unknown>) => {
    const answer = await me.caller.call(op.surface, name, input);
    record(log, op.who, `${op.kind}:${name}`, answer);
    return answer;
  };
  const job = (answer: Answer, cb: boolean) => {
    const id = answer.data?.job?.id ?? (answer.data?.id?.startsWith?.('job_') ? answer.data.id : undefined);
    if (id) log.jobs.push({ id, owner: op.who, callback: cb });
  };
  const charged = (answer: Answer) => {
    // A pending answer (202 and a job) charges later, under its job: the job's own figure is checked there.
    if (answer.status === 200 && !answer.data?.job && typeof answer.data?.creditsCharged === 'number')
      log.charged.push({ op, answer, credits: answer.data.creditsCharged });
  };

  switch (op.kind) {
    case 'transcript': {
      ask(log, me.accountId, op.video);
      const a = await call('transcript', {
        videoId: op.video,
        ...(op.lang ? { lang: op.lang } : {}),
        ...callback(op.callback),
      });
      charged(a);
      job(a, op.callback);
      return;
    }
    case 'frames': {
      const url = op.broken ? me.brokenUrl : me.mediaUrl;
      ask(log, me.accountId, mediaIdOf(url, me.accountId));
      charged(await call('frames', { url, timestamps: op.timestamps, width: op.width }));
      return;
    }
    case 'speech': {
      const url = op.broken ? me.brokenUrl : me.mediaUrl;
      ask(log, me.accountId, mediaIdOf(url, me.accountId));
      const a = await call('transcript', { url, mode: 'generate', ...callback(op.callback) });
      charged(a);
      job(a, op.callback);
      return;
    }
    case 'translate': {
      ask(log, me.accountId, op.video);
      const a = await call('translate', {
        videoId: op.video,
        sourceLang: op.sourceLang,
        targetLang: op.targetLang,
        ...callback(op.callback),
      });
      job(a, op.callback);
      return;
    }
    case 'summary': {
      ask(log, me.accountId, op.video);
      const a = await call('summary', { videoId: op.video, lang: op.lang, ...callback(op.callback) });
      job(a, op.callback);
      return;
    }
    case 'batch': {
      ask(log, me.accountId, ...op.videos);
      const a = await call('createBatch', {
        videos: op.videos,
        operation: op.operation,
        callbackUrl: stack.receiver.url,
      });
      if (a.data?.id) log.batches.push({ id: a.data.id, owner: op.who, callback: true });
      return;
    }
    case 'cancel': {
      const batch = log.batches[op.pick % Math.max(1, log.batches.length)];
      if (!batch) return;
      const a = await call('cancelBatch', { id: batch.id });
      if (batch.owner === op.who) log.cancelledByOwner.add(batch.id);
      else if (a.status === 200)
        log.violations.push(`account ${op.who} cancelled batch ${batch.id} of account ${batch.owner}`);
      return;
    }
    case 'dbBlip': {
      log.blips++;
      // A connection of its own: a blip running at the same time may cut it (then this one's work is done).
      const admin = postgres(stack.databaseUrl, { max: 1, onnotice: () => {} });
      try {
        await admin`
          select pg_terminate_backend(pid) from pg_stat_activity
          where datname = current_database() and pid <> pg_backend_pid()`.catch((err) => {
          if (!isDatabaseDown(err)) throw err;
        });
      } finally {
        await admin.end({ timeout: 1 });
      }
      return;
    }
    case 'killWorker': {
      await stack.replaceWorker();
      return;
    }
    case 'peek': {
      // A read of something that may be another account's, while work is in flight: only the owner may see it.
      if (op.what === 'media') {
        const owner = accounts[op.pick % 3]!;
        // Finding 3: reading another account's media id.
        if (owner.index !== op.who && hole(3)) return;
        await call('videoInfo', { videoId: mediaIdOf(owner.mediaUrl, owner.accountId) });
        return;
      }
      const pool = op.what === 'job' ? log.jobs : log.batches;
      const target = pool[op.pick % Math.max(1, pool.length)];
      if (!target) return;
      const a = await call(op.what === 'job' ? 'getJob' : 'getBatch', { id: target.id });
      if (target.owner !== op.who && a.status === 200)
        log.violations.push(
          `account ${op.who} read ${op.what} ${target.id} of account ${target.owner} on ${op.surface}`,
        );
      return;
    }
  }
}
