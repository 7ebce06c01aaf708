// The text content of a tool result that shows a page of a stored transcript (a transcript tool answered from
// storage, again and again): one line per segment, rendered from the page's values once and kept. Its
// structuredContent needs no rendering: the output step writes the page's stored text (src/bridges/stored-output.ts).
import { createLruCache } from '../../domain/lru-cache.ts';
import type { StoredPart } from '../../domain/stored-json.ts';

/** A page's text, as a string (for the SDK) and as the JSON string it is written as (a part for the output step). */
export interface RenderedText {
  text: string;
  json: StoredPart;
}

const TEXT_PATH = ['content', '0', 'text'];

/** Rendered texts live as long as the cached transcripts they are made of. */
const TEXT_TTL_MS = 10 * 60_000;

/**
 * Rendered texts keyed by the tool and its answer (video, language, paging, credits...; the part is a placeholder
 * there), each valid only for the very stored text it was made from; bounded in bytes.
 */
export function createStoredToolTexts(maxBytes: number) {
  const texts = createLruCache<RenderedText>({ maxBytes });
  return {
    text(tool: string, answer: unknown, part: StoredPart, render: () => string): RenderedText {
      const key = `${tool}\u0000${JSON.stringify(answer)}`;
      const hit = part.repeats ? texts.get(key) : undefined;
      if (hit && hit.json.source === part.source) return hit;
      const text = render();
      const rendered = {
        text,
        json: { ...part, path: TEXT_PATH, json: [Buffer.from(JSON.stringify(text))] },
      };
      // Strings count two bytes a character in V8 at worst; the stored text is held too (shared with the transcript
      // cache while it lives there): counted once more.
      const bytes = 2 * (key.length + text.length) + rendered.json.json[0]!.length + part.source.length;
      if (part.repeats) texts.set(key, rendered, bytes, TEXT_TTL_MS);
      return rendered;
    },
    stats: () => texts.stats(),
  };
}
export type StoredToolTexts = ReturnType<typeof createStoredToolTexts>;
