import { z } from 'zod';
import type { Sql } from '../../../db/client.ts';
import { ServiceError } from '../errors.ts';
import type { Article } from './schemas.ts';
import { readArticle } from './store-article.ts';

export const GetArticleInput = z.object({
  id: z.string().trim().min(1).max(64).describe('The article id (art_...), as returned by summaries and search'),
});
export type GetArticleInput = z.infer<typeof GetArticleInput>;

/** Articles are public within the service (search finds everyone's), so any key may read one by id. */
export async function getArticle(sql: Sql, input: GetArticleInput): Promise<Article> {
  const article = await readArticle(sql, input.id);
  if (!article) throw new ServiceError('ARTICLE_NOT_FOUND', `No article ${JSON.stringify(input.id)}`);
  return article;
}
