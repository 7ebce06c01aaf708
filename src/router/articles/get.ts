import { getArticle, GetArticleInput } from '../../domain/articles/get-article.ts';
import { Article } from '../../domain/articles/schemas.ts';
import { keyedProcedure } from '../trpc.ts';
import { getArticleMeta } from './get.meta.ts';

export const getArticleProcedure = keyedProcedure
  .meta(getArticleMeta)
  .input(GetArticleInput)
  .output(Article)
  .query(({ ctx, input }) => getArticle(ctx.deps, ctx.caller.accountId, input));
