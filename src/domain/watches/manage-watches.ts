// Registering, reading and deleting watches. Free: only a check's transcripts cost credits.
import { ServiceError } from '../errors.ts';
import { parseChannelRef, parsePlaylistRef } from '../listing/collection-ref.ts';
import { checkCallbackUrl } from '../webhooks/callback-url.ts';
import type { WebhookTransport } from '../webhooks/ports.ts';
import type { CreateWatchInput, Watch, WatchList, WatchTarget, WatchWithHistory } from './schemas.ts';
import type { WatchRow, WatchStore } from './watch-store.ts';

interface WatchSettings {
  WATCHES_PER_ACCOUNT: number;
  WATCH_MIN_INTERVAL_SECONDS: number;
  WEBHOOK_ALLOW_HTTP: boolean;
}

export interface ManageWatchPorts {
  watches: WatchStore;
  transport: WebhookTransport;
  config: WatchSettings;
}

const HISTORY_LIMIT = 100;

/** Exactly one target, its reference parsed now (so a bad URL is refused at creation, not at the first check). */
function checkTarget(input: CreateWatchInput): WatchTarget {
  const given = [input.channel, input.playlist, input.search].filter(Boolean).length;
  if (given !== 1) throw new ServiceError('INVALID_REQUEST', 'Give exactly one of channel, playlist or search');
  if (input.channel) {
    parseChannelRef(input.channel);
    return { channel: { ...input.channel, tab: input.channel.tab ?? 'videos' } };
  }
  if (input.playlist) {
    parsePlaylistRef(input.playlist);
    return { playlist: input.playlist };
  }
  return { search: input.search! };
}

const publicWatch = ({ accountId: _a, seenVideoIds: _s, ...w }: WatchRow): Watch => w;

export async function createWatch(
  deps: ManageWatchPorts,
  accountId: string,
  input: CreateWatchInput,
): Promise<WatchWithHistory> {
  const target = checkTarget(input);
  const min = deps.config.WATCH_MIN_INTERVAL_SECONDS;
  const intervalSeconds = input.intervalSeconds ?? min;
  if (intervalSeconds < min)
    throw new ServiceError('INVALID_REQUEST', `intervalSeconds must be at least ${min} on this service`);
  const callbackUrl = await checkCallbackUrl(deps.transport, input.callbackUrl, deps.config.WEBHOOK_ALLOW_HTTP);
  const row = await deps.watches.create(
    {
      accountId,
      target,
      intervalSeconds,
      transcripts: input.transcripts ?? false,
      lang: input.lang ?? null,
      callbackUrl,
    },
    deps.config.WATCHES_PER_ACCOUNT,
  );
  if (!row)
    throw new ServiceError(
      'INVALID_REQUEST',
      `An account may have at most ${deps.config.WATCHES_PER_ACCOUNT} watches; delete one first`,
    );
  return { ...publicWatch(row), history: [] };
}

const notFound = (id: string) => new ServiceError('NOT_FOUND', `No watch ${JSON.stringify(id)} for this account`);

export async function listWatches(deps: Pick<ManageWatchPorts, 'watches'>, accountId: string): Promise<WatchList> {
  return { watches: (await deps.watches.list(accountId)).map(publicWatch) };
}

export async function getWatch(
  deps: Pick<ManageWatchPorts, 'watches'>,
  accountId: string,
  id: string,
): Promise<WatchWithHistory> {
  const row = await deps.watches.get(accountId, id);
  if (!row) throw notFound(id);
  return { ...publicWatch(row), history: await deps.watches.history(row.id, HISTORY_LIMIT) };
}

export async function deleteWatch(
  deps: Pick<ManageWatchPorts, 'watches'>,
  accountId: string,
  id: string,
): Promise<{ id: string; deleted: true }> {
  if (!(await deps.watches.delete(accountId, id))) throw notFound(id);
  return { id, deleted: true };
}
