-- A quoted phrase used to re-read the whole vector of every article holding all its words (for two common words,
-- most of the table) to check their positions. Each article now also lists its adjacent word pairs ("calvin cycl"),
-- taken from the positions of its stored vector, under a GIN index: a phrase first narrows to the articles holding its
-- pairs, and positions are checked on those few.
CREATE FUNCTION "article_word_pairs"(v tsvector) RETURNS text[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
	WITH t AS (SELECT lexeme, unnest(positions) AS p FROM unnest(v))
	SELECT coalesce(array_agg(DISTINCT a.lexeme || ' ' || b.lexeme), '{}') FROM t a JOIN t b ON b.p = a.p + 1
$$;
--> statement-breakpoint
ALTER TABLE "article_search" ADD COLUMN "pairs" text[] NOT NULL DEFAULT '{}';
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "article_search_sync"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO "article_search" ("id", "category", "lang", "lang_base", "created_at", "title_vector", "search_vector", "pairs")
	VALUES (NEW."id", NEW."category", lower(NEW."lang"), lower(split_part(NEW."lang", '-', 1)), NEW."created_at",
		to_tsvector(NEW."search_config", NEW."title") || to_tsvector('simple', NEW."title"), NEW."search_vector",
		article_word_pairs(NEW."search_vector"))
	ON CONFLICT ("id") DO UPDATE SET "category" = EXCLUDED."category", "lang" = EXCLUDED."lang", "lang_base" = EXCLUDED."lang_base",
		"created_at" = EXCLUDED."created_at", "title_vector" = EXCLUDED."title_vector", "search_vector" = EXCLUDED."search_vector",
		"pairs" = EXCLUDED."pairs";
	RETURN NULL;
END $$;
--> statement-breakpoint
UPDATE "article_search" SET "pairs" = article_word_pairs("search_vector");
--> statement-breakpoint
CREATE INDEX "article_search_pairs_idx" ON "article_search" USING gin ("pairs");
