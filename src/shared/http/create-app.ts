// The HTTP foundation both services build on: fastify with request ids, redacting logs, health and
// readiness endpoints, size limits and timeouts, and errors that never leak internals.
import Fastify, { type FastifyInstance, type FastifyError } from 'fastify';
import { rawLineWriterOf, type Logger } from '../log/logger.js';
import { requestIdFrom } from './request-id.js';
import { problem, sendProblem } from './problem.js';
import { JsonBodyError, parseJsonBody } from './json-body.js';
import { AccessLogController, registerAccessLog } from './access-log.js';
import { registerHttpTracing } from './tracing.js';
import {
  REFUSALS,
  clientErrorHandler,
  frameworkErrorHandler,
  pathOf,
  problemRefusal,
  sendRefusal,
  type RefusalRenderer,
} from './refusals.js';

export interface ReadinessCheck {
  readonly name: string;
  check(): Promise<void>;
  /**
   * What a failed check means for readiness: `required` (default) makes the service unready (503);
   * `degraded` keeps it ready (200, status `degraded`) because the service is built to work without this
   * store, so taking every replica out of the load balancer for it would turn a survivable outage into a
   * full one.
   */
  readonly onFailure?: 'required' | 'degraded';
}

export interface HttpAppOptions {
  readonly logger: Logger;
  readonly bodyLimitBytes: number;
  readonly requestTimeoutMs: number;
  readonly keepAliveTimeoutMs: number;
  readonly readiness?: readonly ReadinessCheck[];
  /** The format of refusals made before any route runs (refusals.ts); default problem+json. */
  readonly renderRefusal?: RefusalRenderer;
  /** Paths polled by machines that get no trace span, besides /healthz, /readyz and /metrics (tracing.ts). */
  readonly untracedPaths?: readonly string[];
}

export interface Drain {
  draining: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    drain: Drain;
  }
}

const CHECK_TIMEOUT_MS = 2000;

const PROBES = new Set(['/healthz', '/readyz']);

export function createHttpApp(options: HttpAppOptions): FastifyInstance {
  const render = options.renderRefusal ?? problemRefusal;
  const app = Fastify({
    loggerInstance: options.logger,
    genReqId: (req) => requestIdFrom(req.headers['x-request-id']),
    bodyLimit: options.bodyLimitBytes,
    requestTimeout: options.requestTimeoutMs,
    keepAliveTimeout: options.keepAliveTimeoutMs,
    connectionTimeout: options.requestTimeoutMs,
    // Requests that arrive while draining are refused by the hook below, in the service's format.
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    clientErrorHandler: clientErrorHandler(render, (code, cause) =>
      options.logger.debug({ refusal: code, cause }, 'client error'),
    ),
    frameworkErrors: frameworkErrorHandler(render),
    // One access line per request (access-log.ts) instead of fastify's incoming/completed pair.
    logController: new AccessLogController(rawLineWriterOf(options.logger)),
    // Bound router work on hostile input.
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 256 },
  }) as unknown as FastifyInstance;

  app.decorate('drain', { draining: false });
  // First, so the server span covers every later hook and wraps every route's handler (tracing.ts).
  registerHttpTracing(app, { untracedPaths: options.untracedPaths });
  registerAccessLog(app);

  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    try {
      done(null, parseJsonBody(body as string));
    } catch (error) {
      done(error as JsonBodyError, undefined);
    }
  });

  app.addHook('onRequest', async (req, reply) => {
    reply.header('X-Request-Id', req.id);
    if (!app.drain.draining) return;
    // Shutting down: this request arrived on a connection kept alive from before. A clear refusal
    // (nothing was done; try again elsewhere) and the connection closes after it. Probes still answer
    // (readiness says draining), also on a closing connection.
    if (PROBES.has(pathOf(req.url))) {
      reply.header('Connection', 'close');
      return;
    }
    return sendRefusal(reply, render, REFUSALS.SHUTTING_DOWN, pathOf(req.url), true);
  });
  // Responses of requests still in flight when draining began close their connection too.
  app.addHook('onSend', async (_req, reply) => {
    if (app.drain.draining) reply.header('Connection', 'close');
  });

  // Probes are polled every few seconds: no access line for them (warnings and errors still log).
  const quiet = { logLevel: 'warn' } as const;
  app.get('/healthz', quiet, async () => ({ status: 'ok' }));

  app.get('/readyz', quiet, async (_req, reply) => {
    if (app.drain.draining) return reply.code(503).send({ status: 'draining' });
    const results: Record<string, string> = {};
    let ready = true;
    let degraded = false;
    for (const item of options.readiness ?? []) {
      try {
        await withTimeout(item.check(), CHECK_TIMEOUT_MS);
        results[item.name] = 'ok';
      } catch {
        results[item.name] = 'unavailable';
        if (item.onFailure === 'degraded') degraded = true;
        else ready = false;
      }
    }
    const status = !ready ? 'unavailable' : degraded ? 'degraded' : 'ready';
    return reply.code(ready ? 200 : 503).send({ status, checks: results });
  });

  app.setNotFoundHandler((req, reply) =>
    // The request is not echoed (not even its path): the client knows what it sent.
    sendProblem(reply, problem(404, 'NOT_FOUND', 'No route for this method and path')),
  );

  app.setErrorHandler((error: FastifyError, req, reply) => {
    if (error instanceof JsonBodyError) {
      return sendProblem(
        reply,
        problem(
          400,
          error.code,
          error.message,
          error.pointer === undefined
            ? []
            : [{ pointer: error.pointer, code: error.code, message: error.message }],
        ),
      );
    }
    const status = typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status >= 400 && status < 500) {
      return sendProblem(
        reply,
        problem(status, error.code ?? 'BAD_REQUEST', clientSafeMessage(error)),
      );
    }
    req.log.error({ err: error }, 'unhandled error');
    return sendProblem(
      reply,
      problem(
        500,
        'INTERNAL',
        `An unexpected error occurred; quote request id ${req.id} when reporting it.`,
      ),
    );
  });

  return app;
}

/** Fastify's own 4xx messages are safe (no internals); strip the error-code prefix style. */
function clientSafeMessage(error: FastifyError): string {
  return error.message.replace(/^FST_[A-Z_]+:\s*/, '').slice(0, 300);
}

async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('timeout')), ms);
      }),
    ]);
  } finally {
    if (timer) clearTimeout(timer);
  }
}
