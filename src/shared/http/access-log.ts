// One access line per request, written when the response is finished: method, URL, status, duration,
// client address, plus whatever the handler added with `addLogFields` (the gateway adds the JSON-RPC
// method, tool, backend and the upstream outcome). One line instead of fastify's "incoming request" +
// "request completed" (+ "route not found") plus a handler line: a third of the log volume and of the
// logging CPU on the hot path. Routes polled by machines (health, readiness, metrics) opt out with the
// route option `logLevel: 'warn'`: their line is info, so it is not written.
import {
  LogController,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    /** Extra fields for this request's access line (null until a handler adds some). */
    logFields: Record<string, unknown> | null;
  }
}

/** Adds fields to the request's access line (later values win). Never put secrets here. */
export function addLogFields(req: FastifyRequest, fields: Readonly<Record<string, unknown>>): void {
  if (req.logFields === null) req.logFields = { ...fields };
  else Object.assign(req.logFields, fields);
}

/** Replaces fastify's per-request lines with the single access line (pass as `logController`). */
export class AccessLogController extends LogController {
  override incomingRequest(): void {}

  override routeNotFound(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    req: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const line = {
      method: req.method,
      url: req.url,
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 1000) / 1000,
      remoteAddress: req.socket.remoteAddress,
      ...req.logFields,
    };
    if (error) req.log.error({ ...line, err: error }, 'request failed');
    else req.log.info(line, 'request');
  }
}

export function registerAccessLog(app: FastifyInstance): void {
  app.decorateRequest('logFields', null);
}
