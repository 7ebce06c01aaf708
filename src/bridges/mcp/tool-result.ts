// A tool's answer as an MCP tool result: its text (the procedure's `meta.mcp` renderers), its structured content, the
// resource links it carries; a failure as an `isError` result with the spec's error body.
import type { CallToolResult } from '@modelcontextprotocol/server';
import { readStored, storedPartOf } from '../../domain/stored-json.ts';
import { errorBody } from '../../router/error-table.ts';
import type { StoredToolTexts } from '../stored-answers/tool-texts.ts';
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

export function successResult(def: ToolDef, output: unknown, texts: StoredToolTexts, out: object): CallToolResult {
  const mcp = def.entry.meta.mcp!;
  const links = resourceLinksFor(def, output);
  const part = storedPartOf(output);
  // A page of a stored answer: its text rendered once from the page's values, both written as stored bytes.
  const stored =
    part && texts.result(def.name, out, output as object, part, links, () => resultText(def, readStored(output)));
  if (stored) return stored;
  if (part) output = readStored(output);
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
