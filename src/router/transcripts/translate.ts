import { callerRequest } from '../context.ts';
import { CallbackUrl } from '../../domain/webhooks/schemas.ts';
import { withCallback } from '../job-callback.ts';
import { requestTranslation } from '../../domain/translations/request-translation.ts';
import { TranslateInput, TranslateOutput } from '../../domain/translations/schemas.ts';
import { acceptedUnlessDone } from '../accepted-job.ts';
import { keyedProcedure } from '../trpc.ts';
import { translateTranscriptMeta } from './translate.meta.ts';

export const translateTranscriptProcedure = keyedProcedure
  .meta({ ...translateTranscriptMeta, stored: true })
  .input(TranslateInput.extend({ callbackUrl: CallbackUrl }))
  .output(TranslateOutput)
  .mutation(async ({ ctx, input: { callbackUrl, ...input } }) =>
    acceptedUnlessDone(
      ctx,
      await withCallback(ctx, callbackUrl, () => requestTranslation(ctx.deps, callerRequest(ctx), input)),
    ),
  );
