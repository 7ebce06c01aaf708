-- The operator's control over sign-up: single-use invite codes (stored as SHA-256) and, for accounts made by open
-- sign-up, the first day the daily free allowance applies.
ALTER TABLE "accounts" ADD COLUMN "free_from" date;
--> statement-breakpoint
CREATE TABLE "sign_up_invites" (
	"code_hash" text PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"used_at" timestamp with time zone,
	"account_id" text REFERENCES "accounts"("id") ON DELETE set null
);
