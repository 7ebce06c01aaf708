-- Articles made from a direct media URL (video_id media-...) belong to the account that gave the URL: search, which
-- everyone reads, no longer holds them.
CREATE OR REPLACE FUNCTION "article_search_sync"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF NEW."video_id" LIKE 'media-%' THEN
		DELETE FROM "article_search" WHERE "id" = NEW."id";
		RETURN NULL;
	END IF;
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
DELETE FROM "article_search" s USING "articles" a WHERE a."id" = s."id" AND a."video_id" LIKE 'media-%';
