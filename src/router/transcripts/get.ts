import { getTranscript } from '../../domain/transcripts/get-transcript.ts';
import { GetTranscriptInput, MCP_PAGE_SEGMENTS, TranscriptAnswer } from '../../domain/transcripts/schemas.ts';
import { CallbackUrl } from '../../domain/webhooks/schemas.ts';
import { storedOutput } from '../stored-output.ts';
import { keyedProcedure } from '../trpc.ts';
import { acceptedUnlessDone } from '../accepted-job.ts';
import { withCallback } from '../job-callback.ts';
import { getTranscriptMeta } from './get.meta.ts';

export const getTranscriptProcedure = keyedProcedure
  .meta(getTranscriptMeta)
  .input(GetTranscriptInput.extend({ callbackUrl: CallbackUrl }))
  .output(storedOutput(TranscriptAnswer))
  .mutation(async ({ ctx, input: { callbackUrl, ...input } }) => {
    const out = await withCallback(ctx, callbackUrl, () =>
      getTranscript(
        ctx.deps,
        { caller: ctx.caller, requestId: ctx.requestId },
        { ...input, limit: input.limit ?? (ctx.surface === 'mcp' ? MCP_PAGE_SEGMENTS : undefined) },
      ),
    );
    return out.status === 'succeeded' ? out : acceptedUnlessDone(ctx, out);
  });
