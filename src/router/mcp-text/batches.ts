// MCP text for a batch: counts and credits first, then one line per video that is done, so a model can see what
// failed and why without reading 100 JSON objects.
import type { Batch, BatchItem } from '../../domain/batches/schemas.ts';
import { chargedText } from './shared.ts';

const READ_BACK = {
  transcript: 'Read a transcript with get_video_subtitles (stored ones are free).',
  article: 'Read an article with get_article and its articleId (free).',
  translation:
    'Read a translation with get_video_subtitles and lang set to the target language (stored ones are free).',
} as const;

function done(i: BatchItem): string {
  const r = i.result;
  if (i.status !== 'succeeded' || !r)
    return `${i.position + 1}. ${i.videoId} failed: ${i.error?.code} ${i.error?.message}`;
  const cost = i.creditsCharged ? `, ${i.creditsCharged} credits` : ' (stored, free)';
  switch (r.type) {
    case 'transcript':
      return `${i.position + 1}. ${i.videoId} ok: ${r.lang} transcript${r.source ? ` (${r.source}${r.engine ? `, ${r.engine} ${r.model}` : ''})` : ''}, ${r.segmentCount} segments${cost}`;
    case 'article':
      return `${i.position + 1}. ${i.videoId} ok: article ${r.articleId} "${r.title}" (${r.lang})${cost}`;
    case 'translation':
      return `${i.position + 1}. ${i.videoId} ok: translated ${r.sourceLang} -> ${r.targetLang}, ${r.segmentCount} segments${cost}`;
  }
}

export function batchText(b: Batch): string {
  const c = b.counts;
  const lines = [
    `Batch ${b.id}: ${b.status}; ${c.total} videos: ${c.succeeded} succeeded, ${c.failed} failed, ${c.running} running, ${c.queued} queued, ${c.cancelled} cancelled (${Math.round(b.progress * 100)}% done). ${chargedText(b.creditsCharged)}.`,
  ];
  if (b.status === 'running') lines.push(`Call get_batch with id "${b.id}" again in a few seconds to follow it.`);
  const finished = b.items.filter((i) => i.status === 'succeeded' || i.status === 'failed');
  if (finished.length) lines.push('', ...finished.map(done), '', READ_BACK[b.operation.type]);
  return lines.join('\n');
}
