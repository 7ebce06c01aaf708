// MCP prompts: the requests people make of a video server, written as instructions that use Subtext's tools and
// resources, so a client can offer them as commands (a slash command, a menu entry) with their arguments. The MCP
// bridge registers them (src/bridges/mcp/endpoint.ts); they name tools, so they live here, beside the procedures.
import { z } from 'zod';
import { parseVideoRef } from '../domain/video/video-ref.ts';
import type { McpPrompt, McpPromptMessage as PromptMessage } from './mcp-projection.ts';

/** A prompt, its answer typed by its arguments' schema. */
const prompt = <S extends z.ZodObject>(p: McpPrompt<S>) => p;
import { transcriptUri } from './mcp-resources/transcripts.ts';

const Video = z.string().trim().min(1).max(2048).describe('A YouTube URL or video id (a direct media URL works too)');
const Lang = z.string().trim().max(35).optional().describe('Language of the transcript and of the answer (BCP 47)');

const user = (text: string): PromptMessage => ({ role: 'user', content: { type: 'text', text } });

/** The video's transcript as a resource link, when the argument names a YouTube video (a media URL has no id yet). */
function transcriptLink(video: string, lang: string | undefined): PromptMessage[] {
  let videoId: string;
  try {
    videoId = parseVideoRef(/^https?:/i.test(video) ? { url: video } : { videoId: video });
  } catch {
    return [];
  }
  return [
    {
      role: 'user',
      content: {
        type: 'resource_link',
        uri: transcriptUri(videoId, lang),
        name: `transcript-${videoId}${lang ? `-${lang}` : ''}`,
        title: `Transcript of ${videoId}`,
        mimeType: 'text/plain',
      },
    },
  ];
}

const CITE =
  'Cite every claim with the timestamp of the segment it comes from, as [h:mm:ss] linked to the video at that second ' +
  '(https://www.youtube.com/watch?v=ID&t=SECONDSs for YouTube videos). Quote only what the transcript says.';

const TRANSCRIPT = (video: string, lang: string | undefined) =>
  `Read the transcript of ${video}${lang ? ` in ${lang}` : ''} with the get_video_subtitles tool (url or videoId${lang ? `, lang "${lang}"` : ''}); ` +
  'it comes in pages: while the answer says segments remain, call again with offset=nextOffset. The transcript resource linked below is the same text, free to read once stored.';

const SUMMARY = prompt({
  name: 'summarize_video',
  config: {
    title: 'Summarise a video with timestamped citations',
    description:
      'Summarise one video: its main points in order, each with the [h:mm:ss] moment it is said, linked to that second.',
    argsSchema: z.object({ video: Video, lang: Lang }),
  },
  answer: ({ video, lang }) => ({
    description: `Summary of ${video} with timestamped citations`,
    messages: [
      user(
        `Summarise the video ${video}${lang ? `, writing in ${lang}` : ''}.\n\n${TRANSCRIPT(video, lang)}\n\n` +
          'Then write: a one-paragraph summary, and the main points in the order the video makes them, a short paragraph each. ' +
          `${CITE} If the video has chapters (get_video_info), follow them as sections.`,
      ),
      ...transcriptLink(video, lang),
    ],
  }),
});

const FINDMOMENT = prompt({
  name: 'find_moment',
  config: {
    title: 'Find the moment something is said, with a frame',
    description:
      'Find where in a video something is said (a quote or a topic), give the timestamp and show the frame at that moment.',
    argsSchema: z.object({
      video: Video,
      said: z.string().trim().min(1).max(500).describe('What is said: a quote, or what it is about'),
      lang: Lang,
    }),
  },
  answer: ({ video, said, lang }) => ({
    description: `Where "${said}" is said in ${video}`,
    messages: [
      user(
        `Find the moment in ${video} where this is said: "${said}".\n\n${TRANSCRIPT(video, lang)}\n\n` +
          'Look for the words and for paraphrases (auto-captions have no punctuation and mishear names). For the best match, ' +
          'give its [h:mm:ss] timestamp linked to that second and the segments around it as a quote, then call get_video_frame ' +
          'with the same video and t set to the segment’s start to show what is on screen. If there are several matches, list them; ' +
          'if there is none, say so and give the closest passages.',
      ),
      ...transcriptLink(video, lang),
    ],
  }),
});

const COMPARISON = prompt({
  name: 'compare_videos',
  config: {
    title: 'Compare what several videos say about a topic',
    description:
      'Compare what the videos of a playlist, or the top results of a YouTube search, say about a topic, with timestamped citations per video.',
    argsSchema: z.object({
      topic: z.string().trim().min(1).max(500).describe('What to compare'),
      playlist: z.string().trim().max(2048).optional().describe('A playlist URL or id; else the topic is searched'),
      videos: z
        .string()
        .regex(/^(?:[1-9]|10)$/)
        .optional()
        .describe('How many videos to compare, 1-10 (default 5)'),
      lang: Lang,
    }),
  },
  answer: ({ topic, playlist, videos, lang }) => {
    const n = Number(videos ?? 5);
    const source = playlist
      ? `the first ${n} videos of the playlist ${playlist} (list_playlist_videos)`
      : `the first ${n} results of a YouTube search for "${topic}" (search_youtube_videos)`;
    return {
      description: `What ${playlist ? 'a playlist' : 'YouTube'} says about ${topic}`,
      messages: [
        user(
          `Compare what ${source} say about: ${topic}.\n\n` +
            'Before fetching transcripts, check search_articles for articles already made about these videos (free). ' +
            `For each video read its transcript with get_video_subtitles${lang ? ` (lang "${lang}")` : ''}, paging with offset=nextOffset; ` +
            'a transcript costs credits the first time it is fetched, so say how many you will read. ' +
            'Then answer: where the videos agree, where they differ or contradict each other, and what only one of them says, ' +
            `naming the video each time. ${CITE} End with a table: video, its position in one line, its best citation.`,
        ),
      ],
    };
  },
});

/** The prompts every MCP server lists, in order. */
// biome-ignore lint/suspicious/noExplicitAny: each prompt's own arguments
export const MCP_PROMPTS: McpPrompt<any>[] = [SUMMARY, FINDMOMENT, COMPARISON];
