// MCP text for GET /jobs/{id}: the job's state, or its result (an article, a transcript page, a translation).
import type { JobWithResult } from '../../domain/jobs/get-job.ts';
import { toCiteLines } from '../../domain/transcripts/formats.ts';
import { articleMarkdown } from './articles.ts';
import { chargedText, plural } from './shared.ts';
import { MCP_PAGE_SEGMENTS } from '../../domain/transcripts/schemas.ts';
import { transcriptText } from './transcripts.ts';

export function jobText(j: JobWithResult): string {
  if (j.status === 'failed') return `Job ${j.id} failed: ${j.error?.code} ${j.error?.message}`;
  if (j.status !== 'succeeded')
    return `Job ${j.id} ${j.status}, ${Math.round(j.progress * 100)}% done; call get_job again in a few seconds.`;
  const done = `Job ${j.id} (${j.kind}) succeeded; ${chargedText(j.creditsCharged)}.`;
  const article = j.result?.article;
  if (article) return `${done}\n\n${articleMarkdown(article)}`;
  const transcript = j.result?.transcript;
  if (transcript) {
    const page = { ...transcript, segments: transcript.segments.slice(0, MCP_PAGE_SEGMENTS) };
    const more = transcript.segments.length - page.segments.length;
    const lines = [done, '', transcriptText({ ...page, nextOffset: null })];
    if (more > 0)
      lines.push(
        '',
        `${more} more ${more === 1 ? 'segment is' : 'segments are'} in structuredContent (result.transcript.segments), or call get_video_subtitles with offset=${MCP_PAGE_SEGMENTS} (free).`,
      );
    return lines.join('\n');
  }
  const tr = j.result?.translation;
  if (!tr) return done;
  const shown = tr.segments.slice(0, MCP_PAGE_SEGMENTS);
  const lines = [
    done,
    '',
    `Translation of ${tr.videoId} from ${tr.sourceLang} into ${tr.targetLang}: ${plural(tr.segmentCount, 'segment')} (${tr.model}).`,
    '',
    toCiteLines(shown),
  ];
  if (shown.length < tr.segments.length) {
    const left = tr.segments.length - shown.length;
    lines.push(
      '',
      `${left} more ${left === 1 ? 'segment is' : 'segments are'} in structuredContent (result.translation.segments).`,
    );
  }
  return lines.join('\n');
}
