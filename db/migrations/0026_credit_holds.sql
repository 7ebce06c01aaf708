CREATE TABLE "credit_holds" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"amount" integer NOT NULL,
	"operation" text NOT NULL,
	"video_id" text,
	"request_id" text NOT NULL,
	"job_queue" text,
	"job_key" text,
	"task_id" text,
	"status" text DEFAULT 'held' NOT NULL,
	"ledger_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"closed_at" timestamp with time zone,
	CONSTRAINT "hold_amount_positive" CHECK ("credit_holds"."amount" > 0)
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "held_credits" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "credit_holds" ADD CONSTRAINT "credit_holds_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "credit_holds_task_idx" ON "credit_holds" USING btree ("task_id");--> statement-breakpoint
CREATE INDEX "credit_holds_open_idx" ON "credit_holds" USING btree ("created_at") WHERE "credit_holds"."status" = 'held';--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "held_non_negative" CHECK ("accounts"."held_credits" >= 0);