// The payment service's Prometheus metrics (`payments.metrics`), served at `path` on the service's own
// port without authentication (let only the scraper reach it) and without an access line: the process's
// default metrics; HTTP requests and their duration by method, route template (never the raw URL, which
// carries payment ids) and status; and the execution engine: its lag — how long the oldest transition
// that is due has been waiting (0 when none is) — read from the database at scrape time, and its runs and
// failed transitions, counted as they happen. Labels carry no ids, accounts, amounts or tokens.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { SqlExecutor } from '../shared/db/types.js';
import type { FeesSettings } from './domain/fees/quote.js';
import { ACTIVE, type EngineReport } from './engine/executor.js';
import { dueActions } from './engine/plan.js';
import { paymentsInStatus } from './storage/payments-repo.js';

/** Seconds; from a cached read to a request at the service's timeout. */
const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/**
 * The lag is read at most this often, however many scrapers ask, and never for longer than the timeout: it
 * plans every payment that can still move, as one engine round does (about 0.3 s per 1,000 on SQLite, measured
 * in docs/operations.md), so a scrape costs at most a third of the engine's own polling at its default 5 s.
 */
const LAG_MIN_INTERVAL_MS = 15_000;
const LAG_TIMEOUT_MS = 5000;
/** Routes fastify did not match (404s): their paths are the client's, so they share one label. */
export const UNMATCHED_ROUTE = 'unmatched';

export interface PaymentsMetricsOptions {
  readonly path: string;
  readonly db: SqlExecutor;
  readonly fees: FeesSettings;
  readonly now: () => Date;
}

export interface EngineMetrics {
  /** A finished run: its transitions by action and its failed ones. */
  ran(report: EngineReport): void;
  /** A run that failed as a whole (the database, the rate file…). */
  failed(): void;
}

export interface PaymentsMetrics {
  readonly engine: EngineMetrics;
  /** Adds the route at `path` and the hook that counts every other request. */
  register(app: FastifyInstance): void;
  close(): void;
}

/** Pure: seconds the oldest due transition has waited at `now` (0 when none is due). */
export function lagSeconds(oldestDue: Date | undefined, now: Date): number {
  return oldestDue === undefined ? 0 : Math.max(0, (now.getTime() - oldestDue.getTime()) / 1000);
}

/** The oldest transition due at `now` among the payments that can still move (what the engine would run). */
export async function oldestDue(
  db: SqlExecutor,
  fees: FeesSettings,
  now: Date,
): Promise<Date | undefined> {
  const [first] = dueActions(await paymentsInStatus(db, ACTIVE), now, fees);
  return first?.at;
}

/** Pure: the route label of a request: its template, or UNMATCHED_ROUTE. */
export function routeOf(req: Pick<FastifyRequest, 'routeOptions'>): string {
  return req.routeOptions.url ?? UNMATCHED_ROUTE;
}

export function createPaymentsMetrics(options: PaymentsMetricsOptions): PaymentsMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'toolgate_payments_http_requests_total',
    help: 'Payment service HTTP requests by method, route template and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const durations = new Histogram({
    name: 'toolgate_payments_http_request_duration_seconds',
    help: 'Payment service time from request to response, by method and route template',
    labelNames: ['method', 'route'] as const,
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  const runs = new Counter({
    name: 'toolgate_payments_engine_runs_total',
    help: 'Execution engine runs by outcome (failed: the run stopped as a whole)',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const transitions = new Counter({
    name: 'toolgate_payments_engine_transitions_total',
    help: 'Payment transitions the engine made, by action',
    labelNames: ['action'] as const,
    registers: [registry],
  });
  const transitionFailures = new Counter({
    name: 'toolgate_payments_engine_transition_failures_total',
    help: 'Due transitions the engine tried and could not make (retried on its next run)',
    registers: [registry],
  });
  for (const outcome of ['ok', 'failed']) runs.inc({ outcome }, 0);

  let last: { at: number; lag: Promise<number | null> } | undefined;
  const lag = (): Promise<number | null> => {
    const now = options.now();
    if (last === undefined || now.getTime() - last.at >= LAG_MIN_INTERVAL_MS)
      last = {
        at: now.getTime(),
        lag: withTimeout(oldestDue(options.db, options.fees, now).then((d) => lagSeconds(d, now))),
      };
    return last.lag;
  };
  new Gauge({
    name: 'toolgate_payments_engine_lag_seconds',
    help: 'How long the oldest due payment transition has waited for the engine (0: none due)',
    registers: [registry],
    async collect() {
      this.reset();
      const seconds = await lag();
      if (seconds !== null) this.set(seconds);
    },
  });

  return {
    engine: {
      ran(report) {
        runs.inc({ outcome: 'ok' });
        for (const step of report.steps) transitions.inc({ action: step.action });
        if (report.failures.length > 0) transitionFailures.inc(report.failures.length);
      },
      failed: () => runs.inc({ outcome: 'failed' }),
    },
    register(app) {
      app.get(options.path, { logLevel: 'warn' }, async (_req, reply) =>
        reply
          .header('Cache-Control', 'no-store')
          .type(registry.contentType)
          .send(await registry.metrics()),
      );
      app.addHook('onResponse', async (req: FastifyRequest, reply: FastifyReply) => {
        const route = routeOf(req);
        if (route === options.path) return;
        requests.inc({ method: req.method, route, status: String(reply.statusCode) });
        durations.observe({ method: req.method, route }, reply.elapsedTime / 1000);
      });
    },
    close: () => registry.clear(),
  };
}

/** The answer, or null when it failed or took longer than LAG_TIMEOUT_MS (the gauge has no sample then). */
function withTimeout(query: Promise<number>): Promise<number | null> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), LAG_TIMEOUT_MS);
    timer.unref();
  });
  return Promise.race([query.catch(() => null), timeout]).finally(() => clearTimeout(timer));
}
