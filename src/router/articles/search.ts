import { searchArticles, SearchArticlesInput, SearchArticlesOutput } from '../../domain/articles/search-articles.ts';
import { keyedProcedure } from '../trpc.ts';
import { searchArticlesMeta } from './search.meta.ts';

export const searchArticlesProcedure = keyedProcedure
  .meta(searchArticlesMeta)
  .input(SearchArticlesInput)
  .output(SearchArticlesOutput)
  .query(({ ctx, input }) => searchArticles(ctx.deps.search, input));
