// A scheduled check of one watch: reads up to WATCH_PAGES_PER_CHECK listing pages (free: only transcripts cost),
// records each video not seen before once, optionally fetches its transcript (charged per video as POST /subtitles;
// a refusal, e.g. INSUFFICIENT_CREDITS, is recorded on this watch and stops nothing else), and sends
// watch.video_published / watch.transcript_ready through the signed webhooks.
import { isServiceError } from '../errors.ts';
import { newId } from '../ids.ts';
import { parseChannelRef, parsePlaylistRef } from '../listing/collection-ref.ts';
import type { ListedVideo } from '../listing/schemas.ts';
import type { SourcePage, VideoLister } from '../listing/ports.ts';
import { fetchTranscript, type TranscriptPorts } from '../transcripts/fetch-transcript.ts';
import { queueWebhook, type WebhookDeps } from '../webhooks/deliver-webhook.ts';
import type { WatchTarget } from './schemas.ts';
import type { WebhookEvent } from '../webhooks/schemas.ts';
import type { WatchRow, WatchStore } from './watch-store.ts';

export interface CheckWatchPorts extends TranscriptPorts, Pick<WebhookDeps, 'webhooks' | 'enqueue'> {
  watches: WatchStore;
  lister: VideoLister;
  limits: { pagesPerCheck: number; maxFailures: number; claimBatch: number };
}

/** How many listed ids a watch remembers (enough to tell new from reshuffled on any sane listing). */
const SEEN_LIMIT = 500;

async function pageLoader(lister: VideoLister, target: WatchTarget) {
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
  const load = await pageLoader(deps.lister, w.target);
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

async function announce(deps: CheckWatchPorts, w: WatchRow, event: WebhookEvent, data: Record<string, unknown>) {
  if (!w.callbackUrl) return;
  await queueWebhook(deps, {
    accountId: w.accountId,
    jobId: w.id,
    url: w.callbackUrl,
    event,
    job: { watchId: w.id, ...data },
  });
}

async function transcriptStep(deps: CheckWatchPorts, w: WatchRow, v: ListedVideo): Promise<void> {
  const caller = { accountId: w.accountId, keyId: 'watch', rateLimit: null };
  try {
    const t = await fetchTranscript(
      deps,
      { caller, requestId: newId('req') },
      { videoId: v.videoId, ...(w.lang ? { lang: w.lang } : {}), limit: 1 },
    );
    const kept = { videoId: v.videoId, kind: 'transcript_ready' as const, title: v.title, detail: null };
    if (await deps.watches.recordEvent(w.id, { ...kept, creditsCharged: t.creditsCharged }))
      await announce(deps, w, 'watch.transcript_ready', {
        videoId: v.videoId,
        title: v.title,
        lang: t.lang,
        segmentCount: t.segmentCount,
        source: t.source,
        creditsCharged: t.creditsCharged,
      });
  } catch (err) {
    const code = isServiceError(err) ? err.code : 'INTERNAL_ERROR';
    const message = isServiceError(err) ? err.message : 'the transcript could not be fetched';
    await deps.watches.recordEvent(w.id, {
      videoId: v.videoId,
      kind: code === 'INSUFFICIENT_CREDITS' ? 'transcript_refused' : 'transcript_failed',
      title: v.title,
      detail: `${code}: ${message}`.slice(0, 500),
      creditsCharged: 0,
    });
  }
}

/** One check of a claimed watch. Never throws: a failure is recorded on the watch (and pauses it when it persists). */
async function checkWatch(deps: CheckWatchPorts, w: WatchRow): Promise<void> {
  let items: ListedVideo[];
  try {
    items = await readListing(deps, w);
  } catch (err) {
    const message = isServiceError(err) ? `${err.code}: ${err.message}` : 'the listing could not be read';
    // A listing YouTube does not know (deleted, private) will not come back by itself.
    const max = isServiceError(err) && err.code === 'NOT_FOUND' ? 1 : deps.limits.maxFailures;
    await deps.watches.failed(w.id, message.slice(0, 500), max);
    return;
  }
  const seen = new Set(w.seenVideoIds ?? []);
  const fresh = w.seenVideoIds ? items.filter((v) => !seen.has(v.videoId)) : [];
  const top = [...new Set([...items.map((v) => v.videoId), ...(w.seenVideoIds ?? [])])].slice(0, SEEN_LIMIT);
  await deps.watches.checked(w.id, top);
  // Oldest first, so events arrive in publishing order.
  for (const v of [...new Map(fresh.map((x) => [x.videoId, x])).values()].reverse()) {
    const recorded = await deps.watches.recordEvent(w.id, {
      videoId: v.videoId,
      kind: 'video_published',
      title: v.title,
      detail: null,
      creditsCharged: 0,
    });
    if (!recorded) continue;
    await announce(deps, w, 'watch.video_published', { video: v });
    if (w.transcripts) await transcriptStep(deps, w, v);
  }
}

/** Claims the watches due now (one checker each, across instances) and checks them one by one. */
export async function checkDueWatches(deps: CheckWatchPorts): Promise<number> {
  const due = await deps.watches.claimDue(deps.limits.claimBatch);
  for (const w of due) await checkWatch(deps, w);
  return due.length;
}
