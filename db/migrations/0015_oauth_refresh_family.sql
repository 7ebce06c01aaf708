-- Every refresh token a grant has rotated away, not only the last one: any of them presented again revokes the grant.
CREATE TABLE "oauth_used_refresh_tokens" (
	"refresh_hash" text PRIMARY KEY NOT NULL,
	"grant_id" text NOT NULL REFERENCES "oauth_grants"("id") ON DELETE cascade,
	"used_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
INSERT INTO "oauth_used_refresh_tokens" ("refresh_hash", "grant_id")
	SELECT "previous_refresh_hash", "id" FROM "oauth_grants" WHERE "previous_refresh_hash" IS NOT NULL;
--> statement-breakpoint
DROP INDEX IF EXISTS "oauth_grants_previous_refresh_idx";
--> statement-breakpoint
ALTER TABLE "oauth_grants" DROP COLUMN "previous_refresh_hash";
