// MCP text for a batch: counts and credits first, then one line per video that is done, so a model can see what
// failed and why without reading 100 JSON objects.
import type { Batch } from '../../domain/batches/schemas.ts';

export function batchText(b: Batch): string {
  const c = b.counts;
  const lines = [
    `Batch ${b.id}: ${b.status}; ${c.total} videos: ${c.succeeded} succeeded, ${c.failed} failed, ${c.running} running, ${c.queued} queued, ${c.cancelled} cancelled (${Math.round(b.progress * 100)}% done). ${b.creditsCharged} credits charged.`,
  ];
  if (b.status === 'running') lines.push(`Call get_batch with id "${b.id}" again in a few seconds to follow it.`);
  const done = b.items.filter((i) => i.status === 'succeeded' || i.status === 'failed');
  if (done.length) {
    lines.push('');
    for (const i of done) {
      lines.push(
        i.status === 'succeeded'
          ? `${i.position + 1}. ${i.videoId} ok: ${i.result?.lang} transcript, ${i.result?.segmentCount} segments${i.creditsCharged ? `, ${i.creditsCharged} credits` : ' (stored, free)'}`
          : `${i.position + 1}. ${i.videoId} failed: ${i.error?.code} ${i.error?.message}`,
      );
    }
    lines.push('', 'Read a transcript with get_video_subtitles (stored ones are free).');
  }
  return lines.join('\n');
}
