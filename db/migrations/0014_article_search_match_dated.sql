-- The composite index of 0013 gains the date: a deep page of a common word looks only at matches after a date (the
-- m-th newest article), and with the date in the same index that is one index scan over the few matching rows, where
-- the date's own index made the planner read the out-of-line vector of every article after that date.
DO $$ BEGIN
	-- Only where 0013 could build the composite index (btree_gin usable), else the old index stays.
	IF EXISTS (SELECT 1 FROM pg_indexes WHERE indexname = 'article_search_match_idx') THEN
		DROP INDEX IF EXISTS "article_search_match_idx";
		CREATE INDEX "article_search_match_idx" ON "article_search" USING gin ("search_vector", "lang_base", "category", "created_at") WITH (fastupdate = off);
	END IF;
END $$;
