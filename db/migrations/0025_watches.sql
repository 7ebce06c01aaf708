CREATE TABLE "watch_events" (
	"id" text PRIMARY KEY NOT NULL,
	"watch_id" text NOT NULL,
	"video_id" text NOT NULL,
	"kind" text NOT NULL,
	"title" text,
	"detail" text,
	"credits_charged" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "watches" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"target" jsonb NOT NULL,
	"callback_url" text,
	"transcripts" boolean DEFAULT false NOT NULL,
	"lang" text,
	"interval_seconds" integer NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"paused_reason" text,
	"failures" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"seen_video_ids" jsonb,
	"last_checked_at" timestamp with time zone,
	"next_check_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "watch_events" ADD CONSTRAINT "watch_events_watch_id_watches_id_fk" FOREIGN KEY ("watch_id") REFERENCES "public"."watches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "watches" ADD CONSTRAINT "watches_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "watch_events_once_idx" ON "watch_events" USING btree ("watch_id","video_id","kind");--> statement-breakpoint
CREATE INDEX "watch_events_watch_idx" ON "watch_events" USING btree ("watch_id","created_at");--> statement-breakpoint
CREATE INDEX "watches_account_idx" ON "watches" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "watches_due_idx" ON "watches" USING btree ("status","next_check_at");