// A scheduled check of one watch: reads up to WATCH_PAGES_PER_CHECK listing pages (free: only transcripts cost),
// records each video not seen before once, optionally fetches its transcript (charged per video as POST /subtitles;
// a refusal, e.g. INSUFFICIENT_CREDITS, is recorded on this watch and stops nothing else), and sends
// watch.video_published / watch.transcript_ready through the signed webhooks.
import type { LookupAdmission } from '../admission/lookup-admission.ts';
import { isServiceError } from '../errors.ts';
import { newId } from '../ids.ts';
import { parseChannelRef, parsePlaylistRef } from '../listing/collection-ref.ts';
import type { ListedVideo } from '../listing/schemas.ts';
import type { SourcePage, VideoLister } from '../listing/ports.ts';
import { fetchTranscript, storedTranscriptPage, type TranscriptPorts } from '../transcripts/fetch-transcript.ts';
import { eventBody, type WebhookPorts } from '../webhooks/deliver-webhook.ts';
import { assertAffordable } from '../credits/charged-operation.ts';
import { TRANSCRIPT_PRICE } from '../pricing/prices.ts';
import type { WebhookEvent } from '../webhooks/schemas.ts';
import type { FoundEvent, WatchRow, WatchStore } from './watch-store.ts';

export interface CheckWatchPorts extends TranscriptPorts, Pick<WebhookPorts, 'webhooks' | 'enqueue'> {
  watches: WatchStore;
  lister: VideoLister;
  /** Each page and handle a check fetches passes the shared egress budget (src/domain/admission/). */
  lookupAdmission: LookupAdmission;
  limits: { pagesPerCheck: number; maxFailures: number; claimBatch: number };
}

/** How many listed ids a watch remembers (enough to tell new from reshuffled on any sane listing). */
const SEEN_LIMIT = 500;

async function pageLoader(deps: CheckWatchPorts, w: WatchRow) {
  const target = w.target;
  const admitted = <T>(fetch: () => Promise<T>) => deps.lookupAdmission.run(w.accountId, { scheduled: true }, fetch);
  const lister: VideoLister = {
    ...deps.lister,
    playlist: (id, c) => admitted(() => deps.lister.playlist(id, c)),
    channel: (id, tab, c) => admitted(() => deps.lister.channel(id, tab, c)),
    search: (q, c) => admitted(() => deps.lister.search(q, c)),
    resolveChannel: (ref) => admitted(() => deps.lister.resolveChannel(ref)),
  };
  if (target.playlist) {
    const id = parsePlaylistRef(target.playlist);
    return (c?: string) => lister.playlist(id, c) as Promise<SourcePage<unknown>>;
  }
  if (target.channel) {
    const ref = parseChannelRef(target.channel);
    const id = 'channelId' in ref ? ref.channelId : await lister.resolveChannel(ref);
    const tab = target.channel.tab ?? 'videos';
    return (c?: string) => lister.channel(id, tab, c) as Promise<SourcePage<unknown>>;
  }
  const q = target.search!.query;
  return (c?: string) => lister.search(q, c) as Promise<SourcePage<unknown>>;
}

/** Listed videos from the top, page by page, until a page holds one already seen (or the page bound). */
async function readListing(deps: CheckWatchPorts, w: WatchRow): Promise<ListedVideo[]> {
  const load = await pageLoader(deps, w);
  const seen = new Set(w.seenVideoIds ?? []);
  // The first check only notes what is there: one page.
  const maxPages = w.seenVideoIds ? deps.limits.pagesPerCheck : 1;
  const items: ListedVideo[] = [];
  let continuation: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const p = await load(continuation);
    items.push(...p.items);
    if (!p.continuation || p.items.some((v) => seen.has(v.videoId))) break;
    continuation = p.continuation;
  }
  return items;
}

/** The event to record, with its webhook's delivery when the watch has a callbackUrl (stored in the same transaction). */
function found(
  w: WatchRow,
  e: Omit<FoundEvent, 'delivery'>,
  webhook: { event: WebhookEvent; data: Record<string, unknown> } | null,
): FoundEvent {
  const delivery =
    webhook && w.callbackUrl
      ? {
          accountId: w.accountId,
          jobId: w.id,
          url: w.callbackUrl,
          event: webhook.event,
          body: eventBody(webhook.event, { watchId: w.id, ...webhook.data }, new Date()),
        }
      : null;
  return { ...e, delivery };
}

/** Queues what a record stored; a lost enqueue is sent by the stalled-delivery sweep, so it stops nothing. */
async function queueStored(deps: CheckWatchPorts, deliveries: string[]): Promise<void> {
  for (const id of deliveries) await deps.enqueue(id, 1, null).catch(() => {});
}

/**
 * The transcript of one new video: a stored one is free; otherwise the balance must cover it before anything is
 * asked of YouTube (a watch spends none of the account's free lookups, and a refusal is INSUFFICIENT_CREDITS).
 * It is one request of the admission's (like a procedure call or a batch item), so its video lookup is settled with
 * it: a charged transcript counts as paid, not as an unpaid lookup.
 */
async function fetchForWatch(deps: CheckWatchPorts, w: WatchRow, videoId: string) {
  const req = { caller: { accountId: w.accountId, keyId: 'watch', rateLimit: null }, requestId: newId('req') };
  const input = { videoId, ...(w.lang ? { lang: w.lang } : {}), limit: 1 };
  return deps.lookupAdmission.forRequest(w.accountId, req.requestId, async () => {
    const stored = await storedTranscriptPage(deps, req, input);
    if (stored) return stored;
    await assertAffordable(deps, w.accountId, TRANSCRIPT_PRICE, deps.config.DAILY_FREE_CREDITS);
    return fetchTranscript(deps, req, input);
  });
}

async function transcriptStep(deps: CheckWatchPorts, w: WatchRow, v: { videoId: string; title: string | null }) {
  const base = { videoId: v.videoId, title: v.title, detail: null };
  let event: FoundEvent;
  try {
    const t = await fetchForWatch(deps, w, v.videoId);
    const charged = t.creditsCharged;
    const data = { videoId: v.videoId, title: v.title, lang: t.lang, segmentCount: t.segmentCount, source: t.source };
    event = found(
      w,
      { ...base, kind: 'transcript_ready', creditsCharged: charged },
      { event: 'watch.transcript_ready', data: { ...data, creditsCharged: charged } },
    );
  } catch (err) {
    const code = isServiceError(err) ? err.code : 'INTERNAL_ERROR';
    const message = isServiceError(err) ? err.message : 'the transcript could not be fetched';
    const kind = code === 'INSUFFICIENT_CREDITS' ? 'transcript_refused' : 'transcript_failed';
    event = found(w, { ...base, kind, detail: `${code}: ${message}`.slice(0, 500), creditsCharged: 0 }, null);
  }
  await queueStored(deps, await deps.watches.record(w.id, [event], null));
}

/** Transcript steps per check: the rest wait for the next one. */
const TRANSCRIPTS_PER_CHECK = 20;

/** One check of a claimed watch. A failure to read the listing is recorded on it (and pauses it when it persists). */
async function checkWatch(deps: CheckWatchPorts, w: WatchRow): Promise<void> {
  let items: ListedVideo[];
  try {
    items = await readListing(deps, w);
  } catch (err) {
    const message = isServiceError(err) ? `${err.code}: ${err.message}` : 'the listing could not be read';
    // A listing YouTube does not know (deleted, private) will not come back by itself; a spent YouTube or lookup
    // budget is the service's, not the watch's.
    const code = isServiceError(err) ? err.code : null;
    const max = code === 'NOT_FOUND' ? 1 : deps.limits.maxFailures;
    await deps.watches.failed(w.id, message.slice(0, 500), max, code !== 'SERVICE_BUSY' && code !== 'RATE_LIMITED');
    return;
  }
  const seen = new Set(w.seenVideoIds ?? []);
  const fresh = w.seenVideoIds ? items.filter((v) => !seen.has(v.videoId)) : [];
  const top = [...new Set([...items.map((v) => v.videoId), ...(w.seenVideoIds ?? [])])].slice(0, SEEN_LIMIT);
  // Oldest first, so events arrive in publishing order; recorded with the new top in one transaction.
  const events = [...new Map(fresh.map((x) => [x.videoId, x])).values()]
    .reverse()
    .map((v) =>
      found(
        w,
        { videoId: v.videoId, kind: 'video_published', title: v.title, detail: null, creditsCharged: 0 },
        { event: 'watch.video_published', data: { video: v } },
      ),
    );
  await queueStored(deps, await deps.watches.record(w.id, events, top));
  if (!w.transcripts) return;
  for (const v of await deps.watches.pendingTranscripts(w.id, TRANSCRIPTS_PER_CHECK)) await transcriptStep(deps, w, v);
}

/** Claims the watches due now (one checker each, across instances) and checks them one by one. */
export async function checkDueWatches(deps: CheckWatchPorts): Promise<number> {
  const due = await deps.watches.claimDue(deps.limits.claimBatch);
  for (const w of due) {
    // One watch's unexpected failure (the database, a watch deleted mid-check) must not skip the others claimed.
    await checkWatch(deps, w).catch(() =>
      deps.watches
        .failed(w.id, 'INTERNAL_ERROR: the check could not be completed', deps.limits.maxFailures, true)
        .catch(() => {}),
    );
  }
  return due.length;
}
