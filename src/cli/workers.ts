// `toolgate gateway --workers N`: one gateway process per core behind the same port, with node:cluster.
// The primary checks that N processes can serve as one (quotas in Redis, no per-process sign-in state, a
// fixed port), migrates the database once, forks the workers, prints one summary when all of them listen,
// replaces a worker that dies, and on SIGTERM/SIGINT asks every worker to shut down gracefully.
// Each worker is `toolgate gateway` itself, started by cluster.fork; node:cluster hands every worker the
// primary's listening socket, and connections are spread round-robin among them.
import cluster, { type Worker } from 'node:cluster';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { FrozenConfig } from '../config/schema.js';
import { serveClusterMetrics } from '../gateway/cluster-metrics.js';
import { effectiveStore } from '../gateway/ratelimit/limiter.js';
import { openGatewayDatabase } from '../gateway/database.js';
import type { Logger } from '../shared/log/logger.js';
import type { SignalSource } from '../shared/lifecycle.js';
import { packageRoot } from '../shared/package-root.js';
import { UsageError } from './args.js';

/** The most workers one primary starts (far above any core count this runs on). */
export const MAX_WORKERS = 256;

/** At most this many unexpected worker exits within RESTART_WINDOW_MS before the primary gives up. */
const MAX_RESTARTS = 5;
const RESTART_WINDOW_MS = 60_000;
/** After the grace period, how long the primary waits for workers before killing them. */
const EXIT_MARGIN_MS = 5_000;

/** `--workers`: absent → 1; `auto` → the cores this process may use; else an integer 1..MAX_WORKERS. */
export function parseWorkers(value: string | undefined): number {
  if (value === undefined) return 1;
  if (value === 'auto') return Math.min(availableParallelism(), MAX_WORKERS);
  const count = /^[0-9]{1,3}$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(count) || count < 1 || count > MAX_WORKERS)
    throw new UsageError(
      `--workers must be "auto" or a whole number from 1 to ${MAX_WORKERS} (got "${value.slice(0, 20)}")`,
    );
  return count;
}

/**
 * Why this configuration cannot run as several processes, or undefined. Each refusal is a promise the
 * gateway would otherwise break without saying so.
 */
export function workersRefusal(config: FrozenConfig, count: number): string | undefined {
  const rateLimit = config.gateway.rateLimit;
  const redisUrl = rateLimit.redis.url ?? config.gateway.redis.url;
  const store = effectiveStore({ ...rateLimit, redis: { ...rateLimit.redis, url: redisUrl } }, {});
  if (store !== 'redis')
    return (
      `--workers ${count} needs the Redis rate-limit store (set REDIS_URL or gateway.redis.url): ` +
      `the memory store counts per process, so ${count} workers would allow ${count} times every quota`
    );
  if (config.resolved.devIdentityProvider)
    return (
      `--workers ${count} cannot run the development authorization server, whose sign-in state lives in ` +
      'one process; turn it off (gateway.auth.devIdentityProvider.enabled: false) and use a real ' +
      'identity provider (docs/identity-providers.md)'
    );
  if (config.gateway.port === 0)
    return `--workers ${count} needs a fixed port (gateway.port or TOOLGATE_GATEWAY_PORT), not 0`;
  return undefined;
}

export interface WorkersOptions {
  readonly config: FrozenConfig;
  readonly count: number;
  /** The command's arguments, given to every worker as they are. */
  readonly argv: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  readonly logger: Logger;
  readonly signals: SignalSource;
  /** Told once every worker listens (the summary). */
  readonly onListening: (url: string, pids: readonly number[]) => void;
}

/**
 * Runs the primary until a signal ends it (exit code 0 when every worker stopped cleanly) or workers
 * keep dying (1). A worker that exits before the first time all of them listen is a startup failure:
 * the others are stopped and the primary returns 1.
 */
export async function runWorkers(options: WorkersOptions): Promise<number> {
  const { config, count, logger } = options;
  const refusal = workersRefusal(config, count);
  if (refusal !== undefined) throw new UsageError(refusal);
  // Migrations once, here, before N processes open the same database.
  await (await openGatewayDatabase(config.gateway.database, config.dataDir)).close();

  // Workers answer /metrics with every worker's counts, collected here.
  if (config.gateway.metrics.enabled) serveClusterMetrics();
  cluster.setupPrimary({
    exec: join(packageRoot(), 'bin', 'toolgate.js'),
    args: [...options.argv],
  });
  const workers = new Set<Worker>();
  const listening = new Set<Worker>();
  const restarts: number[] = [];
  let started = false;
  let stopping = false;

  return new Promise<number>((resolve) => {
    let exitCode = 0;
    let deadline: NodeJS.Timeout | undefined;
    const finishWhenAllGone = () => {
      if (workers.size > 0) return;
      clearTimeout(deadline);
      logger.info({ exitCode }, 'all workers stopped');
      resolve(exitCode);
    };
    const stopAll = (reason: string, code: number) => {
      if (stopping) return;
      stopping = true;
      exitCode = Math.max(exitCode, code);
      logger.info({ reason, workers: workers.size }, 'stopping the workers');
      for (const worker of workers) worker.process.kill('SIGTERM');
      deadline = setTimeout(() => {
        for (const worker of workers) worker.process.kill('SIGKILL');
      }, config.shutdown.graceMs + EXIT_MARGIN_MS);
      deadline.unref();
      finishWhenAllGone();
    };
    const fork = () => {
      const worker = cluster.fork(options.env);
      workers.add(worker);
      worker.on('listening', () => {
        listening.add(worker);
        logger.info({ worker: worker.process.pid }, 'worker listening');
        if (started || listening.size < count) return;
        started = true;
        options.onListening(
          `http://${config.gateway.host}:${config.gateway.port}`,
          [...listening].map((w) => w.process.pid ?? 0),
        );
      });
      worker.on('exit', (code, signal) => {
        workers.delete(worker);
        listening.delete(worker);
        if (stopping) {
          logger.info({ worker: worker.process.pid, code, signal }, 'worker stopped');
          // Ended by the SIGTERM it was sent (still starting, before its own handler): a clean stop too.
          if (code !== 0 && signal !== 'SIGTERM') exitCode = 1;
          finishWhenAllGone();
          return;
        }
        logger.error({ worker: worker.process.pid, code, signal }, 'worker exited');
        if (!started) {
          stopAll('a worker failed to start', 1);
          return;
        }
        const now = Date.now();
        restarts.push(now);
        while ((restarts[0] ?? now) < now - RESTART_WINDOW_MS) restarts.shift();
        if (restarts.length > MAX_RESTARTS) {
          stopAll(`more than ${MAX_RESTARTS} workers exited within a minute`, 1);
          return;
        }
        logger.warn({ restarts: restarts.length }, 'starting a replacement worker');
        fork();
      });
    };
    options.signals.once('SIGTERM', () => stopAll('SIGTERM', 0));
    options.signals.once('SIGINT', () => stopAll('SIGINT', 0));
    for (let i = 0; i < count; i++) fork();
  });
}
