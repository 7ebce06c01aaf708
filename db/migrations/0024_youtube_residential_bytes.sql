CREATE TABLE "youtube_residential_bytes" (
	"hour" timestamp with time zone NOT NULL,
	"identity" text NOT NULL,
	"purpose" text NOT NULL,
	"bytes" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "youtube_residential_bytes_pk" PRIMARY KEY("hour","identity","purpose")
);
