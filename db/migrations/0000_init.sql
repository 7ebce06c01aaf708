CREATE TABLE "accounts" (
	"id" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"purchased_balance" integer DEFAULT 0 NOT NULL,
	"free_remaining" integer DEFAULT 0 NOT NULL,
	"free_day" date,
	"rate_limit_per_minute" integer,
	"password_hash" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "accounts_email_unique" UNIQUE("email"),
	CONSTRAINT "purchased_non_negative" CHECK ("accounts"."purchased_balance" >= 0),
	CONSTRAINT "free_non_negative" CHECK ("accounts"."free_remaining" >= 0)
);
--> statement-breakpoint
CREATE TABLE "api_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"name" text NOT NULL,
	"prefix" text NOT NULL,
	"hash" text NOT NULL,
	"rate_limit_per_minute" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"last_used_at" timestamp with time zone,
	CONSTRAINT "api_keys_hash_unique" UNIQUE("hash")
);
--> statement-breakpoint
CREATE TABLE "credit_ledger" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"kind" text NOT NULL,
	"delta" integer NOT NULL,
	"free_delta" integer NOT NULL,
	"purchased_delta" integer NOT NULL,
	"operation" text NOT NULL,
	"video_id" text,
	"request_id" text,
	"refund_of" bigint,
	"settled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "credit_ledger_refund_of_unique" UNIQUE("refund_of")
);
--> statement-breakpoint
CREATE TABLE "rate_counters" (
	"key_id" text NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "rate_counters_key_id_window_start_pk" PRIMARY KEY("key_id","window_start")
);
--> statement-breakpoint
CREATE TABLE "frames" (
	"video_id" text NOT NULL,
	"t_ms" integer NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"mime_type" text NOT NULL,
	"bytes" integer NOT NULL,
	"blob_key" text NOT NULL,
	"source" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "frames_video_id_t_ms_width_pk" PRIMARY KEY("video_id","t_ms","width")
);
--> statement-breakpoint
CREATE TABLE "transcripts" (
	"video_id" text NOT NULL,
	"lang" text NOT NULL,
	"origin" text NOT NULL,
	"track_name" text NOT NULL,
	"segment_count" integer NOT NULL,
	"duration" real NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "transcripts_video_id_lang_origin_pk" PRIMARY KEY("video_id","lang","origin")
);
--> statement-breakpoint
CREATE TABLE "videos" (
	"video_id" text PRIMARY KEY NOT NULL,
	"info" jsonb NOT NULL,
	"tracks" jsonb NOT NULL,
	"fetched_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "blobs" (
	"key" text PRIMARY KEY NOT NULL,
	"mime_type" text NOT NULL,
	"bytes" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "articles" (
	"id" text PRIMARY KEY NOT NULL,
	"video_id" text NOT NULL,
	"lang" text NOT NULL,
	"length" text NOT NULL,
	"source_lang" text NOT NULL,
	"title" text NOT NULL,
	"summary" text NOT NULL,
	"category" text NOT NULL,
	"tags" text[] NOT NULL,
	"body" jsonb NOT NULL,
	"search_config" "regconfig" NOT NULL,
	"search_text" text NOT NULL,
	"search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector(search_config, title), 'A')
          || setweight(to_tsvector('simple', title), 'A')
          || setweight(to_tsvector(search_config, summary), 'B')
          || setweight(to_tsvector(search_config, search_text), 'C')) STORED NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "llm_usage" (
	"id" text PRIMARY KEY NOT NULL,
	"task_id" text,
	"operation" text NOT NULL,
	"model" text NOT NULL,
	"input_tokens" integer NOT NULL,
	"output_tokens" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tasks" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"kind" text NOT NULL,
	"status" text NOT NULL,
	"progress" real DEFAULT 0 NOT NULL,
	"input" jsonb NOT NULL,
	"result" jsonb,
	"error" jsonb,
	"credits_charged" integer DEFAULT 0 NOT NULL,
	"request_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "translations" (
	"video_id" text NOT NULL,
	"source_lang" text NOT NULL,
	"target_lang" text NOT NULL,
	"segment_count" integer NOT NULL,
	"duration" real NOT NULL,
	"body" text NOT NULL,
	"model" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "translations_video_id_source_lang_target_lang_pk" PRIMARY KEY("video_id","source_lang","target_lang")
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_ledger" ADD CONSTRAINT "credit_ledger_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_keys_account_idx" ON "api_keys" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "credit_ledger_account_idx" ON "credit_ledger" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "articles_variant_idx" ON "articles" USING btree ("video_id","lang","length","source_lang");--> statement-breakpoint
CREATE INDEX "articles_search_idx" ON "articles" USING gin ("search_vector");--> statement-breakpoint
CREATE INDEX "articles_filter_idx" ON "articles" USING btree ("category","lang","created_at");--> statement-breakpoint
CREATE INDEX "tasks_account_idx" ON "tasks" USING btree ("account_id","created_at");