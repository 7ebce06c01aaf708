import { z } from 'zod';
import { ServiceError } from '../errors.ts';
import type { Article } from './schemas.ts';
import type { Stores } from '../stores.ts';
import { ownsVideo } from '../video/media-owner.ts';

export const GetArticleInput = z.object({
  id: z.string().trim().min(1).max(64).describe('The article id (art_...), as returned by summaries and search'),
});
export type GetArticleInput = z.infer<typeof GetArticleInput>;

/**
 * Articles are public within the service (search finds everyone's), so any key may read one by id; except an
 * article of a direct media URL, which only the account that gave the URL may read (media-owner.ts).
 */
export async function getArticle(
  { articles, videos }: Pick<Stores, 'articles' | 'videos'>,
  accountId: string,
  input: GetArticleInput,
): Promise<Article> {
  const article = await articles.read(input.id);
  if (!article || !(await ownsVideo(videos, accountId, article.videoId)))
    throw new ServiceError('ARTICLE_NOT_FOUND', `No article ${JSON.stringify(input.id)}`);
  return article;
}
