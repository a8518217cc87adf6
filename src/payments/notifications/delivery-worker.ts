// The webhook delivery worker of the payment service: each tick fans new outbox events out to the
// configured receivers, claims the deliveries that are due, POSTs each (signed, bounded), and records the
// attempt: delivered on 2xx; otherwise retried with exponential back-off and jitter, dead-lettered after
// `maxAttempts`. Every replica may run one: claims are leased (storage/webhook-deliveries.ts). The clock
// and the randomness are injected so tests walk the retries without waiting (docs/payments-notifications.md).
import type { WebhookEventType } from '../../config/payments-webhooks.js';
import type { Database } from '../../shared/db/types.js';
import type { Logger } from '../../shared/log/logger.js';
import {
  backoffDelayMs,
  eventPayload,
  SIGNATURE_HEADER,
  TIMESTAMP_HEADER,
  webhookSignature,
} from '../domain/notification-event.js';
import {
  claimDueDeliveries,
  dispatchEvents,
  recordAttempts,
  type AttemptOutcome,
  type AttemptRecord,
  type ClaimedDelivery,
} from '../storage/webhook-deliveries.js';
import { postWebhook, type WebhookSender } from './webhook-sender.js';

export interface DeliverySettings {
  readonly pollIntervalMs: number;
  readonly batchSize: number;
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
  readonly maxAttempts: number;
  readonly initialBackoffSeconds: number;
  readonly maxBackoffSeconds: number;
}

export interface DeliveryWorkerOptions {
  readonly db: Database;
  readonly endpoints: readonly {
    readonly url: string;
    readonly secret: string;
    readonly events?: readonly WebhookEventType[] | undefined;
  }[];
  readonly settings: DeliverySettings;
  readonly logger: Logger;
  /** Defaults to the system clock. */
  readonly now?: () => Date;
  /** [0, 1); defaults to Math.random (the jitter of the back-off). */
  readonly random?: () => number;
  /** Defaults to postWebhook (fetch). */
  readonly send?: WebhookSender;
}

export interface TickSummary {
  readonly dispatched: number;
  readonly attempted: number;
  readonly delivered: number;
  readonly retried: number;
  readonly dead: number;
}

/** How long past the attempt's own timeout a claim stays leased (database round trips, clock skew). */
const LEASE_MARGIN_MS = 30_000;

export class DeliveryWorker {
  private readonly now: () => Date;
  private readonly random: () => number;
  private readonly send: WebhookSender;
  private readonly secrets: ReadonlyMap<string, string>;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private stopped = false;

  constructor(private readonly options: DeliveryWorkerOptions) {
    this.now = options.now ?? (() => new Date());
    this.random = options.random ?? Math.random;
    this.send = options.send ?? postWebhook;
    this.secrets = new Map(options.endpoints.map((e) => [e.url, e.secret]));
  }

  /** One pass: fan out new events, then send every delivery due now (up to batchSize of each). */
  async runOnce(): Promise<TickSummary> {
    const { db, endpoints, settings } = this.options;
    const dispatched = await dispatchEvents(
      db,
      endpoints.map((e) => ({ url: e.url, events: e.events })),
      this.now(),
      settings.batchSize,
    );
    const claimed = await claimDueDeliveries(
      db,
      this.now(),
      settings.batchSize,
      settings.timeoutMs + LEASE_MARGIN_MS,
    );
    const attempts = await Promise.all(claimed.map((d) => this.attempt(d)));
    // Every result of the pass in one transaction: one commit however many were sent.
    const recorded = attempts.length === 0 ? [] : await recordAttempts(db, attempts);
    attempts.forEach((a, i) => this.report(a, claimed[i]?.url ?? '', recorded[i] === true));
    const outcomes = attempts.map((a) => a.outcome);
    const count = (o: AttemptOutcome) => outcomes.filter((x) => x === o).length;
    return {
      dispatched,
      attempted: claimed.length,
      delivered: count('DELIVERED'),
      retried: count('RETRY'),
      dead: count('DEAD'),
    };
  }

  /** Runs a pass every pollIntervalMs (the next one starts when the last has finished). */
  start(): void {
    if (this.timer !== undefined || this.stopped) return;
    const schedule = () => {
      this.timer = setTimeout(loop, this.options.settings.pollIntervalMs);
      this.timer.unref();
    };
    const loop = () => {
      this.running = this.runOnce()
        .catch((err: unknown) => this.options.logger.warn({ err }, 'webhook delivery pass failed'))
        .finally(() => {
          if (!this.stopped) schedule();
        });
    };
    schedule();
  }

  /** Stops the loop and waits for the pass in progress (its attempts are recorded). */
  async close(): Promise<void> {
    this.stopped = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    await this.running;
  }

  /** Sends one claimed delivery; the attempt to record (never throws). */
  private async attempt(d: ClaimedDelivery): Promise<AttemptRecord> {
    const { settings } = this.options;
    const startedAt = this.now();
    const secret = this.secrets.get(d.url);
    const body = eventPayload(d.event);
    const timestamp = Math.floor(startedAt.getTime() / 1000);
    const started = performance.now();
    const response =
      secret === undefined
        ? { error: 'receiver no longer configured' }
        : await this.send({
            url: d.url,
            body,
            timeoutMs: settings.timeoutMs,
            maxResponseBytes: settings.maxResponseBytes,
            headers: {
              'content-type': 'application/json',
              'user-agent': 'toolgate-webhooks/1',
              'toolgate-event-id': d.event.eventId,
              'toolgate-event-type': d.event.type,
              'toolgate-delivery-id': d.deliveryId,
              'toolgate-delivery-attempt': String(d.attempt),
              [TIMESTAMP_HEADER]: String(timestamp),
              [SIGNATURE_HEADER]: webhookSignature(secret, timestamp, body),
            },
          });
    const durationMs = Math.round(performance.now() - started);
    const ok =
      response.statusCode !== undefined && response.statusCode >= 200 && response.statusCode < 300;
    const exhausted = d.attemptsInBudget >= settings.maxAttempts || secret === undefined;
    const outcome: AttemptOutcome = ok ? 'DELIVERED' : exhausted ? 'DEAD' : 'RETRY';
    const finishedAt = this.now();
    const nextAttemptAt =
      outcome === 'RETRY'
        ? new Date(
            finishedAt.getTime() +
              backoffDelayMs(
                d.attemptsInBudget,
                {
                  initialMs: settings.initialBackoffSeconds * 1000,
                  maxMs: settings.maxBackoffSeconds * 1000,
                },
                this.random,
              ),
          )
        : null;
    const error =
      response.error ?? (ok ? null : `receiver answered HTTP ${String(response.statusCode)}`);
    return {
      deliveryId: d.deliveryId,
      leaseToken: d.leaseToken,
      attempt: d.attempt,
      startedAt,
      durationMs,
      outcome,
      statusCode: response.statusCode ?? null,
      error,
      nextAttemptAt,
      finishedAt,
    };
  }

  private report(a: AttemptRecord, url: string, recorded: boolean): void {
    const { logger } = this.options;
    const where = { deliveryId: a.deliveryId, receiver: originOf(url) };
    const { attempt, error, nextAttemptAt } = a;
    if (!recorded) logger.warn(where, 'webhook delivery lease lost; attempt not recorded');
    else if (a.outcome === 'DEAD')
      logger.warn({ ...where, attempts: attempt, error }, 'webhook delivery dead-lettered');
    else if (a.outcome === 'RETRY')
      logger.info({ ...where, attempt, error, nextAttemptAt }, 'webhook delivery failed');
  }
}

/** The receiver as logs show it: scheme, host and port (a path or query may carry a token). */
function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '…';
  }
}
