// Structured JSON logging (pino) with redaction built in: sensitive headers are masked by path, the
// subscription-key query parameter is masked in URLs, and every serialized line passes the scrubber.
import {
  pino,
  stdSerializers,
  stdTimeFunctions,
  destination,
  symbols,
  levels,
  type Logger,
  type DestinationStream,
} from 'pino';
import { trace } from '@opentelemetry/api';
import { maskSecret } from './mask.js';
import { SecretScrubber } from './scrub.js';

export type { Logger } from 'pino';

export const SENSITIVE_HEADERS = [
  'ocp-apim-subscription-key',
  'authorization',
  'proxy-authorization',
  'api-key',
  'cookie',
  'set-cookie',
  'x-api-key',
  'x-toolgate-gateway-key',
  'x-toolgate-identity',
] as const;

export interface LoggerOptions {
  readonly level: string;
  readonly name?: string;
  /** Extra secret values (configured keys, passwords) that must never appear in output. */
  readonly secrets?: Iterable<string>;
  /** Where lines go; defaults to stdout. Tests pass a capturing stream. */
  readonly destination?: DestinationStream;
}

export interface RedactingLogger {
  readonly logger: Logger;
  readonly scrubber: SecretScrubber;
}

/**
 * Writes lines in the logger's format straight to its destination, for a hot-path line (the access line)
 * whose fields the caller builds itself: no serializers, no redaction paths and no scrubbing pass over the
 * whole line. The caller keeps secrets out by construction — every string it did not make itself goes
 * through `scrubber` first (see `shared/http/access-log.ts`).
 */
export interface RawLineWriter {
  readonly scrubber: SecretScrubber;
  /** Writes `{"level":…,"time":…,"pid":…,"name":…<fields>,"msg":…}`; `fields` is `,"key":value…` JSON. */
  write(level: number, fields: string, msg: string): void;
}

const LEVEL_VALUES: Readonly<Record<string, number>> = levels.values;

/** The numeric value of a pino level name (`info` → 30); Infinity for `silent` and unknown names. */
export function levelValue(name: string): number {
  return name === 'silent' ? Infinity : (LEVEL_VALUES[name] ?? Infinity);
}

/** Destinations of loggers made by `createLogger`, with the scrubber that guards their lines. */
const GUARDED = new WeakMap<
  object,
  { readonly scrubber: SecretScrubber; readonly stream: DestinationStream }
>();

interface PinoInternals {
  readonly [symbols.streamSym]?: object;
  readonly [symbols.chindingsSym]?: string;
}

/**
 * A raw writer for `logger` and its bindings (`pid`, `name`, `service`…, computed and scrubbed once), when
 * `createLogger` made it or its parent; undefined for any other logger (callers then log normally).
 */
export function rawLineWriterOf(logger: Logger): RawLineWriter | undefined {
  const internals = logger as unknown as PinoInternals;
  const target = internals[symbols.streamSym];
  const guarded = target === undefined ? undefined : GUARDED.get(target);
  const chindings = internals[symbols.chindingsSym];
  if (guarded === undefined || typeof chindings !== 'string') return undefined;
  const { scrubber, stream } = guarded;
  const bindings = scrubber.scrub(chindings);
  return {
    scrubber,
    write(level, fields, msg) {
      stream.write(
        `{"level":${level},"time":"${new Date().toISOString()}"${bindings}${fields},"msg":${JSON.stringify(msg)}}\n`,
      );
    },
  };
}

/**
 * `trace_id` and `span_id` of the span active where a line is logged (docs/operations.md, "Traces"); none
 * when tracing is off or no span is active. A non-sampled span's ids are shown too: they still join a log
 * line to the request's traceparent. A new object each time: pino merges the line's fields into it.
 */
export function traceFields(): Record<string, string> {
  const span = trace.getActiveSpan();
  if (span === undefined) return {};
  const { traceId, spanId } = span.spanContext();
  if (traceId === '00000000000000000000000000000000') return {};
  return { trace_id: traceId, span_id: spanId };
}

export function createLogger(options: LoggerOptions): RedactingLogger {
  const scrubber = new SecretScrubber(options.secrets ?? []);
  const headerPaths = SENSITIVE_HEADERS.flatMap((h) => [
    `req.headers["${h}"]`,
    `res.headers["${h}"]`,
    `headers["${h}"]`,
  ]);
  const stream = options.destination ?? destination({ sync: false });
  const logger = pino(
    {
      level: options.level,
      ...(options.name === undefined ? {} : { name: options.name }),
      base: { pid: process.pid },
      mixin: traceFields,
      timestamp: stdTimeFunctions.isoTime,
      redact: {
        paths: headerPaths,
        censor: (value: unknown) => (typeof value === 'string' ? maskSecret(value) : '…'),
      },
      hooks: { streamWrite: (line: string) => scrubber.scrub(line) },
      serializers: {
        err: stdSerializers.err,
      },
    },
    stream,
  );
  GUARDED.set(stream, { scrubber, stream });
  return { logger, scrubber };
}
