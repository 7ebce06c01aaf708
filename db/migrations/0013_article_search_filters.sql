-- A word with a category or language filter used the filter's date index and then read the whole vector (out of line,
-- in TOAST) of every article in that category or language to check the word: the planner does not price that read.
-- One GIN index over the vector and both filters (btree_gin) answers the word and the filters together, so only
-- matching rows are visited; it also serves the word alone, so it replaces the vector's own index. Where btree_gin
-- cannot be installed the old index stays and searches stay correct, only slower with filters.
DO $$ BEGIN
	CREATE EXTENSION IF NOT EXISTS btree_gin;
	CREATE INDEX "article_search_match_idx" ON "article_search" USING gin ("search_vector", "lang_base", "category") WITH (fastupdate = off);
	DROP INDEX "article_search_vector_idx";
EXCEPTION WHEN undefined_file OR insufficient_privilege OR feature_not_supported OR undefined_object THEN
	RAISE NOTICE 'btree_gin unavailable (%): article search keeps article_search_vector_idx', SQLERRM;
END $$;
--> statement-breakpoint
-- Without a pending list every search reads only the index's sorted trees: a list of up to gin_pending_list_limit
-- (4 MB) of unsorted recent entries was scanned by every query until a vacuum merged it. Storing an article pays instead
-- (articles are written rarely, searched often).
ALTER INDEX "article_search_title_idx" SET (fastupdate = off);
--> statement-breakpoint
ALTER INDEX "article_search_pairs_idx" SET (fastupdate = off);
--> statement-breakpoint
SELECT gin_clean_pending_list('article_search_title_idx'), gin_clean_pending_list('article_search_pairs_idx');
