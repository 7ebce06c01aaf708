ALTER TABLE "tasks" ADD COLUMN "job_key" text;--> statement-breakpoint
CREATE INDEX "tasks_job_key_idx" ON "tasks" USING btree ("job_key");