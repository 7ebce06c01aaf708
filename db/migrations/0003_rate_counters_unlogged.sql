-- Rate-limit counters live for a minute: skipping the WAL (one flush per request on the hot path) is worth
-- losing them in a database crash, which at worst resets every key's current window.
ALTER TABLE "rate_counters" SET UNLOGGED;
