// The tool result of an answer that carries a stored part (a page of a stored transcript, answered again and again):
// its text content (one line per segment) rendered from the page's values once and kept, and written, like the
// structuredContent's part, by the one writer (write.ts): the result carries placeholders.
import type { CallToolResult } from '@modelcontextprotocol/server';
import { createLruCache } from '../../domain/lru-cache.ts';
import { STORED, type StoredPart } from '../../domain/stored-json.ts';
import { placeStoredPart } from '../../router/stored-output.ts';

const TEXT_PATH = ['content', '0', 'text'];

/** Rendered texts live as long as the cached transcripts they are made of. */
const TEXT_TTL_MS = 10 * 60_000;

/**
 * Rendered texts keyed by the tool and its answer (video, language, paging, credits...; the part is a placeholder
 * there), each valid only for the very stored text it was made from; bounded in bytes.
 */
export function createStoredToolTexts(maxBytes: number) {
  const texts = createLruCache<StoredPart>({ maxBytes });
  const textOf = (tool: string, answer: unknown, part: StoredPart, render: () => string): StoredPart => {
    // The placeholder names the part's place in its request: the key is the answer as it would be with the first.
    const key = `${tool}\u0000${JSON.stringify(answer)}`;
    const hit = part.repeats ? texts.get(key) : undefined;
    if (hit && hit.source === part.source) return hit;
    const text = Buffer.from(JSON.stringify(render()));
    const json = { ...part, path: TEXT_PATH, json: [text] };
    // The stored text is held too (shared with the transcript cache while it lives there): counted once more.
    if (part.repeats) texts.set(key, json, 2 * key.length + text.length + part.source.length, TEXT_TTL_MS);
    return json;
  };
  return {
    /**
     * The tool result of `output` (carrying `part`), its text rendered by `render` from the values. Without a writer
     * for the request's answer (`out` has no list), `undefined`: the caller renders the values.
     */
    result(
      tool: string,
      out: object,
      output: object,
      part: StoredPart,
      links: CallToolResult['content'],
      render: () => string,
    ): CallToolResult | undefined {
      const { [STORED]: _part, ...structured } = output as Record<PropertyKey, unknown>;
      const text = placeStoredPart(out, textOf(tool, structured, part, render));
      if (text === undefined) return undefined;
      // The SDK checks the result's shape: it sees no symbol key.
      return { content: [{ type: 'text', text }, ...links], structuredContent: structured };
    },
    stats: () => texts.stats(),
  };
}
export type StoredToolTexts = ReturnType<typeof createStoredToolTexts>;
