-- Failed sign-ins per (email, client address): growing delays for that pair instead of locking the email out.
CREATE TABLE "sign_in_failures" (
	"email" text NOT NULL,
	"address" text NOT NULL,
	"failures" integer NOT NULL,
	"last_attempt_at" timestamp with time zone NOT NULL,
	"blocked_until" timestamp with time zone,
	CONSTRAINT "sign_in_failures_email_address_pk" PRIMARY KEY("email","address")
);
