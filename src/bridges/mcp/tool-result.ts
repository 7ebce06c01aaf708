// A tool's answer as an MCP tool result: its text (the procedure's `meta.mcp` renderers), its structured content, the
// resource links it carries; a failure as an `isError` result with the spec's error body.
import type { CallToolResult } from '@modelcontextprotocol/server';
import { errorBody } from '../../router/error-table.ts';
import { resourceLinksFor, type ToolDef } from './tools.ts';

export function errorResult(code: Parameters<typeof errorBody>[0], message: string): CallToolResult {
  // Keys in the order the SDK's result schema writes them (the direct path answers the same text).
  return { content: [{ type: 'text', text: JSON.stringify(errorBody(code, message)) }], isError: true };
}

export function resultText(def: ToolDef, output: unknown): string {
  const mcp = def.entry.meta.mcp!;
  return mcp.text
    ? mcp.text(output)
    : mcp.summarize
      ? `${mcp.summarize(output)}\n\n${JSON.stringify(output)}`
      : JSON.stringify(output);
}

export function successResult(def: ToolDef, output: unknown): CallToolResult {
  const mcp = def.entry.meta.mcp!;
  const links = resourceLinksFor(def, output);
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
