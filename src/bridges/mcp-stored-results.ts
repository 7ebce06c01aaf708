// A tool result showing a page of a stored transcript (get_video_subtitles answered from storage, again and again) is
// rendered once and kept as UTF-8: its text content (one line per segment) and its structuredContent segments. The
// SDK answers the call with both left empty, so it validates and serializes a small result, and the bridge splices
// the kept bytes into that JSON. Everything else (id, credits, paging, protocol framing) is the SDK's, per call.
import type { StoredPage } from '../domain/subtitles/fetch-transcript.ts';
import type { Segment } from '../domain/video/schemas.ts';
import { createLruCache } from '../domain/lru-cache.ts';
import { splicePlaceholders } from './stored-segments.ts';

/** The placeholders a result carries to the SDK: an empty text content and empty segments. */
const TEXT = '"text":""';
const SEGMENTS = '"segments":[]';
/** Rendered results live as long as the cached transcripts they are made of. */
const RESULT_TTL_MS = 10 * 60_000;

export interface RenderedPage {
  /** `"text":<the text content>` */
  text: Uint8Array;
  /** `"segments":<the page's segments>` */
  segments: Uint8Array;
}

/**
 * Rendered pages keyed by the tool and its answer without segments (video, language, paging, credits...), each
 * valid only for the very stored segments it was made from; bounded in bytes.
 */
export function createStoredToolResults(maxBytes: number) {
  const results = createLruCache<{ stored: Uint8Array; rendered: RenderedPage }>({ maxBytes });
  return {
    render(tool: string, answer: unknown, page: StoredPage, textOf: (segments: Segment[]) => string): RenderedPage {
      const key = `${tool}\u0000${JSON.stringify(answer)}`;
      const hit = results.get(key);
      if (hit && hit.stored === page.segmentsJson) return hit.rendered;
      const segments = page.segments();
      const rendered = {
        text: Buffer.from(`"text":${JSON.stringify(textOf(segments))}`),
        segments: Buffer.from(`"segments":${JSON.stringify(segments)}`),
      };
      // The stored bytes are held too (shared with the transcript cache while they live there): counted once more.
      results.set(
        key,
        { stored: page.segmentsJson, rendered },
        key.length + page.segmentsJson.length + rendered.text.length + rendered.segments.length,
        RESULT_TTL_MS,
      );
      return rendered;
    },
    stats: () => results.stats(),
  };
}
export type StoredToolResults = ReturnType<typeof createStoredToolResults>;

/**
 * The SDK's JSON answer with its empty text content and empty segments replaced by the rendered ones, or undefined
 * when it has no such placeholders (it answered an error instead).
 */
export function spliceRendered(json: string, rendered: RenderedPage): Uint8Array<ArrayBuffer> | undefined {
  return splicePlaceholders(json, [
    { placeholder: TEXT, bytes: [rendered.text] },
    { placeholder: SEGMENTS, bytes: [rendered.segments] },
  ]);
}
