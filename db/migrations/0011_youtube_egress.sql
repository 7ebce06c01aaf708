CREATE TABLE "youtube_identities" (
	"id" text PRIMARY KEY NOT NULL,
	"window_start" timestamp with time zone,
	"used" integer DEFAULT 0 NOT NULL,
	"cooling_until" timestamp with time zone,
	"strikes" integer DEFAULT 0 NOT NULL,
	"last_reason" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "youtube_outcomes" (
	"hour" timestamp with time zone NOT NULL,
	"client" text NOT NULL,
	"purpose" text NOT NULL,
	"identity" text NOT NULL,
	"kind" text NOT NULL,
	"count" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "youtube_outcomes_pk" PRIMARY KEY("hour","client","purpose","identity","kind")
);
