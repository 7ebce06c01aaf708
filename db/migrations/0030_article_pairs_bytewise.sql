-- The phrase pairs ("calvin cycl") compared byte by byte rather than by the database's locale (C.UTF-8 and the like
-- go through strcoll for every comparison): a pair's index is built, and looked up, several times faster, and a bulk
-- load of articles spent most of its time building it. Only whether an article holds a pair matters, never their order.
ALTER TABLE "article_search" ALTER COLUMN "pairs" SET DATA TYPE text[] COLLATE "C";
--> statement-breakpoint
-- The same pairs, told apart byte by byte too (their distinct set, in whatever order).
CREATE OR REPLACE FUNCTION "article_word_pairs"(v tsvector) RETURNS text[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
	WITH t AS (SELECT lexeme, unnest(positions) AS p FROM unnest(v))
	SELECT coalesce(array_agg(DISTINCT (a.lexeme || ' ' || b.lexeme) COLLATE "C"), '{}') FROM t a JOIN t b ON b.p = a.p + 1
$$;
