// A tool's answer as an MCP tool result: its text (the procedure's `meta.mcp` renderers), its structured content, the
// resource links it carries; a failure as an `isError` result with the spec's error body.
import type { CallToolResult } from '@modelcontextprotocol/server';
import { parseStored, STORED, storedPartOf, withValueAt, type StoredPart } from '../../domain/stored-json.ts';
import { errorBody } from '../../router/error-table.ts';
import type { StoredToolTexts } from './stored-results.ts';
import { resourceLinksFor, type ToolDef } from './tools.ts';

export function errorResult(code: Parameters<typeof errorBody>[0], message: string): CallToolResult {
  // Keys in the order the SDK's result schema writes them (the direct path answers the same text).
  return { content: [{ type: 'text', text: JSON.stringify(errorBody(code, message)) }], isError: true };
}

function resultText(def: ToolDef, output: unknown): string {
  const mcp = def.entry.meta.mcp!;
  return mcp.text
    ? mcp.text(output)
    : mcp.summarize
      ? `${mcp.summarize(output)}\n\n${JSON.stringify(output)}`
      : JSON.stringify(output);
}

export function successResult(def: ToolDef, output: unknown, texts: StoredToolTexts, stored?: Stored): CallToolResult {
  const mcp = def.entry.meta.mcp!;
  const links = resourceLinksFor(def, output);
  const part = storedPartOf(output);
  if (part) {
    // A page of a stored answer: its text rendered once from the page's values; structuredContent keeps the
    // placeholder, which the output step fills with the stored text.
    const { text, json } = texts.text(def.name, output, part, () =>
      resultText(def, withValueAt(output as object, part.path, parseStored(part))),
    );
    if (stored) stored.text = json;
    // The SDK checks the result's shape: it sees no symbol key.
    const { [STORED]: _part, ...structured } = output as Record<PropertyKey, unknown>;
    return { content: [{ type: 'text', text }, ...links], structuredContent: structured };
  }
  if (mcp.image) {
    const img = mcp.image(output);
    return {
      content: [
        { type: 'image', data: img.base64, mimeType: img.mimeType },
        { type: 'text', text: img.caption },
        ...links,
      ],
    };
  }
  return {
    content: [{ type: 'text', text: resultText(def, output) }, ...links],
    structuredContent: output as Record<string, unknown>,
  };
}

/** The stored part a request's tool result carries (and its text as JSON), for the output step. */
export type Stored = { part: StoredPart; text?: StoredPart };
