import { getTranscript, storedTranscript } from '../../domain/transcripts/get-transcript.ts';
import type { z } from 'zod';
import { callerRequest, type AuthedContext } from '../context.ts';
import { GetTranscriptInput, MCP_PAGE_SEGMENTS, TranscriptAnswer } from '../../domain/transcripts/schemas.ts';
import { CallbackUrl } from '../../domain/webhooks/schemas.ts';
import { keyedProcedure } from '../trpc.ts';
import { acceptedUnlessDone } from '../accepted-job.ts';
import { withCallback } from '../job-callback.ts';
import { getTranscriptMeta } from './get.meta.ts';

const Input = GetTranscriptInput.extend({ callbackUrl: CallbackUrl });

/** What the domain verb is asked: on MCP, a page of MCP_PAGE_SEGMENTS unless a limit is given. */
const transcriptRequest = (ctx: AuthedContext, { callbackUrl: _, ...input }: z.infer<typeof Input>) => ({
  ...input,
  limit: input.limit ?? (ctx.surface === 'mcp' ? MCP_PAGE_SEGMENTS : undefined),
});

export const getTranscriptProcedure = keyedProcedure
  .meta({
    ...getTranscriptMeta,
    // A stored transcript is answered before tRPC; a callbackUrl is checked by the procedure.
    stored: (ctx: AuthedContext, input: z.infer<typeof Input>) =>
      input.callbackUrl
        ? Promise.resolve(null)
        : storedTranscript(ctx.deps, callerRequest(ctx), transcriptRequest(ctx, input)),
  })
  .input(Input)
  .output(TranscriptAnswer)
  .mutation(async ({ ctx, input }) => {
    const out = await withCallback(ctx, input.callbackUrl, () =>
      getTranscript(ctx.deps, callerRequest(ctx), transcriptRequest(ctx, input)),
    );
    return out.status === 'succeeded' ? out : acceptedUnlessDone(ctx, out);
  });
