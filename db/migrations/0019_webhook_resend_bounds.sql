ALTER TABLE "webhook_deliveries" ADD COLUMN "resent_from" text;
--> statement-breakpoint
CREATE INDEX "webhook_deliveries_resends_idx" ON "webhook_deliveries" USING btree ("account_id","created_at") WHERE "webhook_deliveries"."resent_from" is not null;
