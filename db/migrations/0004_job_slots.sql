CREATE TABLE "job_slots" (
	"queue" text NOT NULL,
	"slot" integer NOT NULL,
	"holder" text,
	"lease_until" timestamp with time zone,
	CONSTRAINT "job_slots_queue_slot_pk" PRIMARY KEY("queue","slot")
);
