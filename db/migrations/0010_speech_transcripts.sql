-- Transcripts made by our speech-to-text (origin 'speech') say which engine and model wrote them.
ALTER TABLE "transcripts" ADD COLUMN "engine" text;--> statement-breakpoint
ALTER TABLE "transcripts" ADD COLUMN "model" text;
