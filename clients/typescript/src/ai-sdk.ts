// `@subtext/client/ai-sdk`: the service's operations as AI SDK tools (`ai` is a peer dependency, not bundled).
import { tool, type Tool } from 'ai';
import type { z } from 'zod';
import { OPERATIONS, type OperationInput, type OperationName, type OperationOutputs } from './agent-operations.js';
import type { SubtextClientOptions } from './options.js';
import { createSubtextClient } from './trpc-client.js';

export type SubtextTools = { [N in OperationName]: Tool<OperationInput<N>, OperationOutputs[N]> };

/**
 * AI SDK tools over the service at `url`: `generateText({ model, tools: subtextTools({ url, key }) })`. Each tool's
 * input is a zod schema and its output the service's typed answer; a refusal throws the service's error.
 */
export function subtextTools(options: SubtextClientOptions): SubtextTools {
  const api = createSubtextClient(options);
  const one = (name: OperationName) => {
    // One operation at a time: TypeScript cannot follow a union of seven schemas through tool()'s overloads.
    const op = OPERATIONS[name] as unknown as {
      description: string;
      input: z.ZodType<Record<string, unknown>>;
      run(api: unknown, input: unknown): Promise<unknown>;
    };
    return tool({ description: op.description, inputSchema: op.input, execute: (input) => op.run(api, input) });
  };
  return Object.fromEntries(
    (Object.keys(OPERATIONS) as OperationName[]).map((n) => [n, one(n)]),
  ) as unknown as SubtextTools;
}
