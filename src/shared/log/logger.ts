// Structured JSON logging (pino) with redaction built in: sensitive headers are masked by path, the
// subscription-key query parameter is masked in URLs, and every serialized line passes the scrubber.
import {
  pino,
  stdSerializers,
  stdTimeFunctions,
  destination,
  type Logger,
  type DestinationStream,
} from 'pino';
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

export function createLogger(options: LoggerOptions): RedactingLogger {
  const scrubber = new SecretScrubber(options.secrets ?? []);
  const headerPaths = SENSITIVE_HEADERS.flatMap((h) => [
    `req.headers["${h}"]`,
    `res.headers["${h}"]`,
    `headers["${h}"]`,
  ]);
  const logger = pino(
    {
      level: options.level,
      ...(options.name === undefined ? {} : { name: options.name }),
      base: { pid: process.pid },
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
    options.destination ?? destination({ sync: false }),
  );
  return { logger, scrubber };
}
