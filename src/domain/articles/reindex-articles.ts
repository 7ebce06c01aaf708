import { isMediaId } from '../video/video-ref.ts';
import { ServiceError } from '../errors.ts';
import type { ArticleSearch, BulkIndexResult } from './ports.ts';
import type { Stores } from '../stores.ts';

export interface ReindexProgress {
  /** Articles read from Postgres so far. */
  read: number;
  indexed: number;
  failed: BulkIndexResult['failed'];
}

/**
 * Copies every stored article into the search backend, `batchSize` at a time in id order (keyset pagination: each
 * page is one index range scan, and articles stored meanwhile past the cursor are picked up too). A failing
 * article is recorded and the rebuild goes on; a failing request (backend down, bad key) stops it, by throwing.
 */
export async function reindexArticles(
  { articles }: Pick<Stores, 'articles'>,
  search: ArticleSearch,
  opts: { batchSize: number; onBatch?: (p: ReindexProgress) => void },
): Promise<ReindexProgress> {
  if (!search.indexMany) throw new ServiceError('INTERNAL_ERROR', 'This search backend has no index to rebuild');
  const progress: ReindexProgress = { read: 0, indexed: 0, failed: [] };
  let after: string | null = null;
  for (;;) {
    const page = await articles.listAfter(after, opts.batchSize);
    if (page.length === 0) break;
    // Articles of direct media URLs are their account's alone: never in the search everyone reads.
    const result = await search.indexMany(page.filter((a) => !isMediaId(a.videoId)));
    progress.read += page.length;
    progress.indexed += result.indexed;
    progress.failed.push(...result.failed);
    opts.onBatch?.(progress);
    after = page.at(-1)!.id;
    if (page.length < opts.batchSize) break;
  }
  return progress;
}
