import { integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Cluster-wide concurrency slots per job queue: a worker leases a free slot before running a job and renews
 * the lease while it works; a slot whose lease ran out (its worker died) is free again.
 */
export const jobSlots = pgTable(
  'job_slots',
  {
    queue: text('queue').notNull(),
    slot: integer('slot').notNull(),
    holder: text('holder'),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.queue, t.slot] })],
);
