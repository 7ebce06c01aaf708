// A batch: one operation over many videos (given, or listed from a playlist, channel tab or search), run as one
// child job per video on a capacity-limited queue. Refused up front (402) when the balance cannot cover every video
// at the operation's price (batchVideoPrice: exact for captions, a stated figure where a video's length or captions
// decide), saying how many it can; a playlist, channel or search is listed only when the balance covers one video
// (its pages spend the shared YouTube budget). Each video is then charged for what is stored for it.
import { ServiceError } from '../errors.ts';
import { batchVideoPrice } from '../pricing/prices.ts';
import type { CallerRequest } from '../keys/caller.ts';
import type { BatchListing } from '../admission/lookup-admission.ts';
import { collectVideoIds, type ListingPorts } from '../listing/list-videos.ts';
import { parseVideoRef } from '../video/video-ref.ts';
import { checkCallbackUrl } from '../webhooks/callback-url.ts';
import type { WebhookTransport } from '../webhooks/ports.ts';
import type { BatchStore } from './ports.ts';
import type { Batch, CreateBatchInput } from './schemas.ts';
import { getBatch, type BatchViewPorts } from './get-batch.ts';

const DEFAULT_COLLECTION_VIDEOS = 20;

export interface CreateBatchPorts extends BatchViewPorts {
  batches: BatchStore;
  listing: Pick<ListingPorts, 'lister' | 'listingCache' | 'lookupAdmission'>;
  /** Spendable credits now. */
  balance: (accountId: string) => Promise<number>;
  /**
   * Takes one of the account's free lookups (FREE_LOOKUPS_PER_10_MIN) or refuses with RATE_LIMITED: a listing's pages
   * spend the shared YouTube budget and are never charged (the batch may still be refused for want of credits after),
   * so a listing the balance may not cover takes one.
   */
  takeFreeLookup: (accountId: string) => Promise<void>;
  /** Whether a language model is configured (translations need one). */
  llmConfigured: boolean;
  /** Whether a speech-to-text engine is available (transcripts in mode generate need one; auto falls back to it). */
  speechConfigured: boolean;
  transport: WebhookTransport;
  allowHttpCallbacks: boolean;
  /** Puts the batch's items on the queue. */
  enqueueItems: (batchId: string, positions: number[]) => Promise<void>;
}

type VideoPrice = ReturnType<typeof batchVideoPrice>;

/** Exactly one source, maxVideos only with a listing, an acceptable callback, and an operation this server runs. */
async function checkedBatchInput(deps: CreateBatchPorts, input: CreateBatchInput) {
  const sources = (['videos', 'playlist', 'channel', 'search'] as const).filter((k) => input[k] !== undefined);
  if (sources.length !== 1)
    throw new ServiceError('INVALID_REQUEST', 'Give exactly one of videos, playlist, channel or search');
  if (input.videos && input.maxVideos !== undefined)
    throw new ServiceError('INVALID_REQUEST', 'maxVideos applies to playlist, channel or search, not to videos');
  const callbackUrl = await checkCallbackUrl(deps.transport, input.callbackUrl, deps.allowHttpCallbacks);
  const operation = input.operation ?? { type: 'transcript' as const };
  if (operation.type === 'translation' && !deps.llmConfigured) {
    throw new ServiceError(
      'LLM_NOT_CONFIGURED',
      'Translation needs a language model and none is configured on this server (ANTHROPIC_API_KEY)',
    );
  }
  if (operation.type === 'transcript' && operation.mode === 'generate' && !deps.speechConfigured) {
    throw new ServiceError(
      'STT_NOT_CONFIGURED',
      'Speech-to-text (mode generate) is not available on this server (set STT_BASE_URL, or install pocketsphinx for the local engine)',
    );
  }
  return { callbackUrl, operation };
}

/** The videos of a playlist, channel tab or search, listed only when the balance covers one of them. */
async function listedVideoIds(
  deps: CreateBatchPorts,
  req: CallerRequest,
  input: CreateBatchInput,
  price: VideoPrice,
  listing: BatchListing,
): Promise<string[]> {
  // Listing pages spend the cluster's shared YouTube budget: a caller who cannot pay for one video spends none.
  const balance = await deps.balance(req.caller.accountId);
  if (balance < price.perVideo)
    throw new ServiceError(
      'INSUFFICIENT_CREDITS',
      `A batch over a playlist, channel or search needs credits for at least one video (${price.perVideo}) before it is listed; the balance is ${balance}.`,
    );
  // Checking one video's credits is not enough: the listing may then be refused (402) for the rest, uncharged, and
  // sent again at once. A listing the balance may not cover in full (maxVideos videos) takes one of the account's
  // free lookups, so that loop is bounded; a caller who can pay for every video it may list (on top of its other
  // listings under way) takes none.
  const max = input.maxVideos ?? DEFAULT_COLLECTION_VIDEOS;
  const covered = await deps.listing.lookupAdmission.claimListing(listing, max * price.perVideo, balance);
  if (!covered) await deps.takeFreeLookup(req.caller.accountId);
  const source = input.playlist
    ? { playlist: /[/?=]/.test(input.playlist) ? { url: input.playlist } : { playlistId: input.playlist } }
    : input.channel
      ? {
          channel: {
            ...(/\//.test(input.channel) ? { url: input.channel } : { channelId: input.channel }),
            tab: input.channelTab,
          },
        }
      : { search: { query: input.search! } };
  const videoIds = await collectVideoIds(deps.listing, listing, source, max, req.signal);
  if (videoIds.length === 0)
    throw new ServiceError('INVALID_REQUEST', 'That playlist, channel or search lists no videos');
  return videoIds;
}

export async function createBatch(deps: CreateBatchPorts, req: CallerRequest, input: CreateBatchInput): Promise<Batch> {
  const { callbackUrl, operation } = await checkedBatchInput(deps, input);
  const price = batchVideoPrice(operation, deps.speechConfigured);
  if (input.videos) {
    const videoIds = [
      ...new Set(input.videos.map((v) => parseVideoRef(/^[\w-]{11}$/.test(v) ? { videoId: v } : { url: v }))),
    ];
    return storedBatch(deps, req, input, { callbackUrl, operation, price, videoIds, pages: 0 });
  }
  // The listing's pages count as unpaid until the batch holds them; a listing that ends with no batch (refused, no
  // videos, failed) leaves them unpaid lookups.
  const listing = deps.listing.lookupAdmission.openListing(req.caller.accountId);
  let held = false;
  try {
    const videoIds = await listedVideoIds(deps, req, input, price, listing);
    const pages = listing.counted.length;
    const batch = await storedBatch(deps, req, input, { callbackUrl, operation, price, videoIds, pages }, () => {
      held = true;
    });
    return batch;
  } finally {
    await deps.listing.lookupAdmission.endListing(listing, held);
  }
}

/** 402 unless the balance covers every video, else the batch stored (`onStored` once it holds its pages) and queued. */
async function storedBatch(
  deps: CreateBatchPorts,
  req: CallerRequest,
  input: CreateBatchInput,
  b: {
    callbackUrl: string | null;
    operation: Batch['operation'];
    price: VideoPrice;
    videoIds: string[];
    pages: number;
  },
  onStored: () => void = () => {},
): Promise<Batch> {
  const { callbackUrl, operation, price, videoIds, pages } = b;
  await assertBalance(deps, req.caller.accountId, videoIds.length, price);
  const batch = await deps.batches.create({
    accountId: req.caller.accountId,
    requestId: req.requestId,
    operation,
    source: input.videos
      ? { videos: videoIds.length }
      : {
          playlist: input.playlist,
          channel: input.channel,
          channelTab: input.channelTab,
          search: input.search,
          maxVideos: input.maxVideos ?? DEFAULT_COLLECTION_VIDEOS,
        },
    callbackUrl,
    videoIds,
    listingPages: pages,
  });
  onStored();
  await deps.enqueueItems(
    batch.id,
    videoIds.map((_, i) => i),
  );
  return getBatch(deps, req.caller.accountId, batch.id);
}

/** 402 unless the balance covers `videos` videos at the operation's price, saying how many it covers. */
async function assertBalance(
  deps: Pick<CreateBatchPorts, 'balance'>,
  accountId: string,
  videos: number,
  price: ReturnType<typeof batchVideoPrice>,
): Promise<void> {
  const needed = videos * price.perVideo;
  const balance = await deps.balance(accountId);
  if (balance >= needed) return;
  const affordable = Math.floor(balance / price.perVideo);
  throw new ServiceError(
    'INSUFFICIENT_CREDITS',
    `A batch of ${videos} video${videos === 1 ? '' : 's'} may cost ${price.exact ? 'up to ' : ''}${needed} credits${price.exact ? '' : ' or more'} (${price.note}); ` +
      `the balance is ${balance}, enough for ${affordable} video${affordable === 1 ? '' : 's'}. Send at most ${affordable}, or add credits.`,
  );
}
