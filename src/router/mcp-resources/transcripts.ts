// The transcript resource (read through get_video_subtitles) and the links to it that transcript and translation
// answers carry.
import { credits, SPEECH_PRICE_PER_MINUTE, TRANSCRIPT_PRICE } from '../../domain/pricing/prices.ts';
import { toCiteLines } from '../../domain/transcripts/formats.ts';
import { MAX_PAGE_SEGMENTS, type TranscriptAnswer } from '../../domain/transcripts/schemas.ts';
import type { TranslateOutput } from '../../domain/translations/schemas.ts';
import type { McpLink, McpResource } from '../mcp-projection.ts';
import { expandTemplate } from './uri-template.ts';

const TEMPLATE = 'subtext://videos/{videoId}/transcript{?lang}';

export const transcriptUri = (videoId: string, lang?: string) => expandTemplate(TEMPLATE, { videoId, lang });

function transcriptLink(videoId: string, lang: string, source: string): McpLink {
  return {
    name: `transcript-${videoId}-${lang}`,
    title: `Transcript of ${videoId} (${lang}${source === 'translation' ? ', translation' : ''})`,
    uri: transcriptUri(videoId, lang),
    description: 'Timed transcript as "[h:mm:ss] text" lines; reading it again is free.',
    mimeType: 'text/plain',
  };
}

/** A transcript answer links its transcript once it is there (not while speech-to-text runs). */
export const transcriptLinks = (o: TranscriptAnswer): McpLink[] =>
  o.status === 'succeeded' ? [transcriptLink(o.videoId, o.lang, o.source)] : [];

export const translationLinks = (o: Pick<TranslateOutput, 'translation'>): McpLink[] =>
  o.translation ? [transcriptLink(o.translation.videoId, o.translation.targetLang, 'translation')] : [];

export const transcriptResource: McpResource = {
  name: 'transcript',
  template: TEMPLATE,
  title: 'Transcript of a video',
  mimeType: 'text/plain',
  description:
    'A video’s timed transcript as "[h:mm:ss] text" lines. videoId: a YouTube video id, or a media-... id this account created. lang (optional, BCP 47): the captions in that language, or a stored translation into it; omitted, the video’s default track. ' +
    `Free when stored (fetched before, by anyone); otherwise read from the video’s captions, costing ${credits(TRANSCRIPT_PRICE)} as get_video_subtitles does. A video without captions is transcribed by speech-to-text as get_video_subtitles does (${credits(SPEECH_PRICE_PER_MINUTE)} per started minute, charged when it succeeds): the read then fails naming the job to poll with get_job, and reading again once it succeeded is free.`,
  input: ({ videoId, lang }) => ({ videoId, ...(lang ? { lang } : {}), limit: MAX_PAGE_SEGMENTS }),
  content(t: TranscriptAnswer) {
    if (t.status !== 'succeeded')
      // A video without captions: speech-to-text runs as a job, as for the tool; once it succeeds the read is free.
      return {
        pending: `${t.videoId} has no captions: speech-to-text is ${t.status} as job ${t.job.id} (about ${credits(t.estimatedCredits)} when it succeeds); poll get_job, then read this resource again (free)`,
        data: { job: t.job, status: t.status, estimatedCredits: t.estimatedCredits },
      };
    const rest =
      t.nextOffset === null
        ? ''
        : `\n\n(${t.segmentCount - t.nextOffset} more segments: call get_video_subtitles with offset=${t.nextOffset}.)`;
    return { mimeType: 'text/plain', text: `${toCiteLines(t.segments).trimEnd()}${rest}` };
  },
};
