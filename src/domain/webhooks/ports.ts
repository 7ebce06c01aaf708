// Webhooks as the domain sees them. src/infra/webhooks sends them (SSRF rules, signing); src/infra/postgres keeps them.
import type { WebhookDelivery, WebhookEvent } from './schemas.ts';

export interface WebhookTransport {
  /** Throws ServiceError INVALID_REQUEST unless `url` may be called back (host resolving to allowed addresses only). */
  assertAllowed(url: string): Promise<void>;
  /** One signed POST of `body` (Standard Webhooks headers); no redirects followed. Rejects when unreachable or refused. */
  send(url: string, secret: string, msgId: string, body: string): Promise<{ status: number }>;
}

export interface DeliveryRow {
  id: string;
  accountId: string;
  jobId: string;
  url: string;
  event: WebhookEvent;
  body: string;
  status: 'waiting' | 'pending' | 'delivered' | 'failed';
  attempts: number;
  createdAt: Date;
}

interface AttemptRecord {
  attempt: number;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

/** A delivery to store: the event's fixed body for a url. */
export interface NewDelivery {
  accountId: string;
  jobId: string;
  url: string;
  event: WebhookEvent;
  body: string;
}

export interface WebhookStore {
  create(d: NewDelivery): Promise<string>;
  get(id: string): Promise<DeliveryRow | null>;
  /**
   * A resend of `from` (same account, job, url, event and body), unless the account already has `perAccount` resends,
   * or the job `perEvent`, created since `since`: counted and inserted under one per-account lock. Null when refused.
   */
  createResend(
    from: DeliveryRow,
    limits: { perEvent: number; perAccount: number; since: Date },
  ): Promise<string | null>;
  /** A delivery for a job that has not ended yet (status waiting, no body). */
  register(d: { accountId: string; jobId: string; url: string }): Promise<string>;
  /** Deliveries still waiting whose job (translation, article) has ended: for `jobKey`'s jobs, or all of them. */
  waitingForEndedJobs(jobKey?: string): Promise<{ id: string; accountId: string; jobId: string }[]>;
  /** waiting -> pending with its body, once; false when someone else did it first. */
  arm(id: string, event: WebhookEvent, body: string): Promise<boolean>;
  /** Records the attempt and moves the delivery on, in one transaction; false when that attempt was already recorded. */
  recordAttempt(
    id: string,
    a: AttemptRecord,
    next: { status: DeliveryRow['status']; nextAttemptAt: Date | null },
  ): Promise<boolean>;
  list(filter: { accountId: string; jobId?: string; limit: number }): Promise<WebhookDelivery[]>;
  /**
   * Pending deliveries due `graceSeconds` ago or more (within the last day) with no job of `queue` queued or running
   * under their key: the attempt's enqueue was lost (the database away, or the worker killed, right after the row).
   */
  stalledPending(queue: string, graceSeconds: number): Promise<{ id: string; attempts: number }[]>;
  /** The account's signing secret, made (once, atomically) when it has none. */
  secretFor(accountId: string): Promise<string>;
  rotateSecret(accountId: string): Promise<string>;
}

/** Puts a delivery on the webhook queue, to run at `at` (now when null). */
export type EnqueueDelivery = (deliveryId: string, attempt: number, at: Date | null) => Promise<void>;
