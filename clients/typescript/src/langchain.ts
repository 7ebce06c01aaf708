// `@subtext/client/langchain`: a document loader and the service's operations as LangChain tools, on
// `@langchain/core` (a peer dependency, not bundled). Metadata follows LangChain's YouTube loader's names.
import { BaseDocumentLoader } from '@langchain/core/document_loaders/base';
import { Document } from '@langchain/core/documents';
import { type DynamicStructuredTool, tool } from '@langchain/core/tools';
import type { TRPCClient } from '@trpc/client';
import { OPERATIONS, type OperationName } from './agent-operations.js';
import type { AppRouter } from './generated/app-router.js';
import type { SubtextClientOptions } from './options.js';
import { createSubtextClient, type RouterOutputs } from './trpc-client.js';

/** What each document carries: the video, and the span of it the text covers. */
export interface SubtextDocumentMetadata {
  /** The video's watch URL. */
  source: string;
  videoId: string;
  title: string;
  /** The channel's name. */
  author: string | null;
  /** YYYY-MM-DD, when YouTube says. */
  publish_date: string | null;
  /** The video's length in seconds. */
  length: number;
  start_seconds: number;
  end_seconds: number;
  /** The transcript's language code. */
  language: string;
  /** The chapter's title, for documents per chapter. */
  chapter?: string;
}

export type SubtextLoaderOptions = SubtextClientOptions & {
  /** Video ids (or media-... ids) to load. */
  videos: string[];
  /** The transcript's language; unset: the video's default track. */
  language?: string;
  /** One document per chapter (videos without chapters give one document). */
  chapters?: boolean;
};

type Info = RouterOutputs['videos']['info'];
type Segment = { start: number; end: number; text: string };

/** At most this many transcript pages per video (a page is hundreds of segments: hours of speech). */
const MAX_PAGES = 50;

/** Loads each video's transcript as Documents: one per video, or one per chapter with `chapters: true`. */
export class SubtextLoader extends BaseDocumentLoader {
  readonly #api: TRPCClient<AppRouter>;
  readonly #options: SubtextLoaderOptions;

  constructor(options: SubtextLoaderOptions) {
    super();
    this.#api = createSubtextClient(options);
    this.#options = options;
  }

  async load(): Promise<Document<SubtextDocumentMetadata>[]> {
    const docs: Document<SubtextDocumentMetadata>[] = [];
    for (const videoId of this.#options.videos) docs.push(...(await this.#loadVideo(videoId)));
    return docs;
  }

  async #loadVideo(videoId: string): Promise<Document<SubtextDocumentMetadata>[]> {
    const info = await this.#api.videos.info.query({ videoId });
    const { language, segments } = await this.#transcript(videoId);
    const spans =
      this.#options.chapters && info.chapters.length
        ? info.chapters.map((c, i) => ({
            title: c.title,
            start: c.start,
            end: info.chapters[i + 1]?.start ?? info.duration,
          }))
        : [{ title: undefined, start: 0, end: info.duration }];
    return spans.map((span, i) => {
      const last = i === spans.length - 1;
      const inside = segments.filter((s) => s.start >= span.start && (last || s.start < span.end));
      return new Document({
        pageContent: inside.map((s) => s.text).join('\n'),
        metadata: metadataOf(info, language, span),
      });
    });
  }

  async #transcript(videoId: string): Promise<{ language: string; segments: Segment[] }> {
    const segments: Segment[] = [];
    let offset: number | null = 0;
    let language = '';
    for (let page = 0; offset !== null && page < MAX_PAGES; page++) {
      const t = await this.#api.subtitles.get.mutate({ videoId, lang: this.#options.language, format: 'json', offset });
      if (t.status !== 'succeeded') throw new Error(`The transcript of ${videoId} is being made (job ${t.job.id})`);
      language = t.lang;
      segments.push(...t.segments);
      offset = t.nextOffset;
    }
    return { language, segments };
  }
}

function metadataOf(info: Info, language: string, span: { title?: string; start: number; end: number }) {
  const metadata: SubtextDocumentMetadata = {
    source: `https://www.youtube.com/watch?v=${info.videoId}`,
    videoId: info.videoId,
    title: info.title,
    author: info.channelName,
    publish_date: info.publishDate,
    length: info.duration,
    start_seconds: span.start,
    end_seconds: span.end,
    language,
  };
  if (span.title !== undefined) metadata.chapter = span.title;
  return metadata;
}

/** The same operations as the AI SDK's tools, as LangChain tools; each answers the service's JSON. */
export function subtextLangChainTools(options: SubtextClientOptions): DynamicStructuredTool[] {
  const api = createSubtextClient(options);
  return (Object.keys(OPERATIONS) as OperationName[]).map((name) => {
    const op = OPERATIONS[name];
    return tool(async (input: unknown) => JSON.stringify(await op.run(api, input as never)), {
      name,
      description: op.description,
      schema: op.input,
    }) as unknown as DynamicStructuredTool;
  });
}
