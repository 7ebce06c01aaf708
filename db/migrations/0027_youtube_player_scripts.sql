CREATE TABLE "youtube_player_scripts" (
	"variant" text NOT NULL,
	"player_id" text NOT NULL,
	"first_used" timestamp with time zone DEFAULT now() NOT NULL,
	"last_ok" timestamp with time zone,
	"last_failed" timestamp with time zone,
	"last_error" text,
	CONSTRAINT "youtube_player_scripts_pk" PRIMARY KEY("variant","player_id")
);
