import { callerRequest } from '../context.ts';
import { CallbackUrl } from '../../domain/webhooks/schemas.ts';
import { withCallback } from '../job-callback.ts';
import { RequestArticleInput, RequestArticleOutput } from '../../domain/articles/request-article-schemas.ts';
import { requestArticle } from '../../domain/articles/request-article.ts';
import { acceptedUnlessDone } from '../accepted-job.ts';
import { keyedProcedure } from '../trpc.ts';
import { createArticleMeta } from './create.meta.ts';

export const createArticleProcedure = keyedProcedure
  .meta(createArticleMeta)
  .input(RequestArticleInput.extend({ callbackUrl: CallbackUrl }))
  .output(RequestArticleOutput)
  .mutation(async ({ ctx, input: { callbackUrl, ...input } }) =>
    acceptedUnlessDone(
      ctx,
      await withCallback(ctx, callbackUrl, () => requestArticle(ctx.deps, callerRequest(ctx), input)),
    ),
  );
