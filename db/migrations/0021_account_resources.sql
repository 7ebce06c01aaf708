-- What each account has obtained as an MCP resource (transcripts, translations, articles, frames): resources/list
-- lists an account's own rows, newest first (keyset on seen_at, uri).
CREATE TABLE "account_resources" (
	"account_id" text NOT NULL,
	"uri" text NOT NULL,
	"name" text NOT NULL,
	"title" text NOT NULL,
	"mime_type" text NOT NULL,
	"seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "account_resources_account_id_uri_pk" PRIMARY KEY("account_id","uri")
);
--> statement-breakpoint
ALTER TABLE "account_resources" ADD CONSTRAINT "account_resources_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "account_resources_seen_idx" ON "account_resources" USING btree ("account_id","seen_at" DESC NULLS LAST,"uri");