-- Article search reads a narrow table of its own, kept in step by a trigger: the filters, the date, a small vector of
-- the title (inline) and the whole weighted vector (toasted out of line, read only to rank a small candidate set or
-- to check a phrase). Matching, counting and newest-first ordering then touch a few MB instead of the wide articles
-- rows (body, summary and search text inline), which is what made common words slow.
CREATE TABLE "article_search" (
	"id" text PRIMARY KEY NOT NULL REFERENCES "articles"("id") ON DELETE CASCADE,
	"category" text NOT NULL,
	"lang" text NOT NULL,
	"lang_base" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"title_vector" tsvector NOT NULL,
	"search_vector" tsvector NOT NULL
) WITH (toast_tuple_target = 128);
--> statement-breakpoint
ALTER TABLE "article_search" ALTER COLUMN "title_vector" SET STORAGE MAIN;
--> statement-breakpoint
-- lz4 reads a vector back several times faster than pglz (phrase checks and ranking read them); skipped where the
-- server was built without it.
DO $$ BEGIN
	ALTER TABLE "article_search" ALTER COLUMN "search_vector" SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported OR invalid_parameter_value THEN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "article_search_sync"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO "article_search" ("id", "category", "lang", "lang_base", "created_at", "title_vector", "search_vector")
	VALUES (NEW."id", NEW."category", lower(NEW."lang"), lower(split_part(NEW."lang", '-', 1)), NEW."created_at",
		to_tsvector(NEW."search_config", NEW."title") || to_tsvector('simple', NEW."title"), NEW."search_vector")
	ON CONFLICT ("id") DO UPDATE SET "category" = EXCLUDED."category", "lang" = EXCLUDED."lang", "lang_base" = EXCLUDED."lang_base",
		"created_at" = EXCLUDED."created_at", "title_vector" = EXCLUDED."title_vector", "search_vector" = EXCLUDED."search_vector";
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "articles_search_sync" AFTER INSERT OR UPDATE ON "articles" FOR EACH ROW EXECUTE FUNCTION "article_search_sync"();
--> statement-breakpoint
INSERT INTO "article_search" ("id", "category", "lang", "lang_base", "created_at", "title_vector", "search_vector")
SELECT "id", "category", lower("lang"), lower(split_part("lang", '-', 1)), "created_at",
	to_tsvector("search_config", "title") || to_tsvector('simple', "title"), "search_vector"
FROM "articles";
--> statement-breakpoint
CREATE INDEX "article_search_vector_idx" ON "article_search" USING gin ("search_vector");
--> statement-breakpoint
CREATE INDEX "article_search_title_idx" ON "article_search" USING gin ("title_vector");
--> statement-breakpoint
CREATE INDEX "article_search_lang_idx" ON "article_search" USING btree ("lang_base", "created_at" DESC, "id");
--> statement-breakpoint
CREATE INDEX "article_search_category_idx" ON "article_search" USING btree ("category", "created_at" DESC, "id");
--> statement-breakpoint
CREATE INDEX "article_search_created_idx" ON "article_search" USING btree ("created_at" DESC, "id");
--> statement-breakpoint
DROP INDEX "articles_search_idx";
--> statement-breakpoint
DROP INDEX "articles_filter_idx";
