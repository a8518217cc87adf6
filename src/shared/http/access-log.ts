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
import { levelValue, type RawLineWriter } from '../log/logger.js';
import { serverSpanOf } from './tracing.js';

const INFO = levelValue('info');

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
  /**
   * @param writer the app logger's raw writer (`rawLineWriterOf`): when given, the info line is built
   * here from its fields, each string the gateway did not write itself scrubbed on its own, instead of
   * through the logger's redaction paths and a scrubbing pass over the whole serialized line.
   */
  constructor(private readonly writer?: RawLineWriter) {
    super();
  }

  override incomingRequest(): void {}

  override routeNotFound(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    req: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const ms = Math.round(reply.elapsedTime * 1000) / 1000;
    // Every traced request's line names its trace: the ids of the request's server span (tracing set up;
    // a non-sampled span's ids too, since they still join the line to the caller's traceparent).
    const span = serverSpanOf(req);
    if (span !== undefined && req.logFields?.trace_id === undefined) {
      const { traceId, spanId } = span.spanContext();
      addLogFields(req, { trace_id: traceId, span_id: spanId });
    }
    if (!error && this.writer !== undefined) {
      if (levelValue(req.log.level) <= INFO) this.write(this.writer, req, reply.statusCode, ms);
      return;
    }
    const line = {
      method: req.method,
      url: req.url,
      status: reply.statusCode,
      ms,
      remoteAddress: req.socket.remoteAddress,
      ...req.logFields,
    };
    if (error) req.log.error({ ...line, err: error }, 'request failed');
    else req.log.info(line, 'request');
  }

  /** The same line as `req.log.info(line, 'request')` writes, secrets kept out field by field. */
  private write(writer: RawLineWriter, req: FastifyRequest, status: number, ms: number): void {
    const { scrubber } = writer;
    const safe = (value: string): string => JSON.stringify(scrubber.scrub(value));
    // The method is one node's parser knows and the address the socket's: neither can carry a secret.
    let fields = `,"reqId":${safe(req.id)},"method":${JSON.stringify(req.method)},"url":${safe(req.url)},"status":${status},"ms":${ms}`;
    const address = req.socket.remoteAddress;
    if (address !== undefined) fields += `,"remoteAddress":${JSON.stringify(address)}`;
    const extra = req.logFields;
    if (extra !== null) {
      for (const key of Object.keys(extra)) {
        const value = extra[key];
        if (value === undefined) continue;
        // Keys are the gateway's own names (addLogFields callers); later keys win when JSON is read, as
        // the spread above does.
        fields += `,${JSON.stringify(key)}:${
          typeof value === 'string'
            ? safe(value)
            : typeof value === 'number' || typeof value === 'boolean'
              ? JSON.stringify(value)
              : scrubber.scrub(JSON.stringify(value) ?? 'null')
        }`;
      }
    }
    writer.write(INFO, fields, 'request');
  }
}

export function registerAccessLog(app: FastifyInstance): void {
  app.decorateRequest('logFields', null);
}
