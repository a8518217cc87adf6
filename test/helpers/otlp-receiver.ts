// A real OTLP/HTTP trace receiver on a loopback port, for tests that run toolgate with OTEL_* pointing at
// it: `POST /v1/traces` in either form the specification defines — protobuf (`application/x-protobuf`,
// decoded here by a small wire-format reader for the trace fields tests look at) or JSON
// (`application/json`, OTLP/JSON with hex ids) — gzip or not. Each request's raw body is kept too, so a test
// can check what was serialized (no key, token or argument value).
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { gunzipSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';

export type AttributeValue = string | number | boolean | readonly AttributeValue[] | null;

export interface ReceivedSpan {
  readonly traceId: string;
  readonly spanId: string;
  /** '' for a root span. */
  readonly parentSpanId: string;
  readonly name: string;
  /** OTLP SpanKind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  readonly kind: number;
  readonly attributes: Readonly<Record<string, AttributeValue>>;
  /** OTLP status code: 0 unset, 1 ok, 2 error. */
  readonly statusCode: number;
  readonly links: readonly { readonly traceId: string; readonly spanId: string }[];
  /** The resource's service.name. */
  readonly service: string;
  readonly scope: string;
}

export interface ReceivedRequest {
  readonly protocol: 'http/protobuf' | 'http/json';
  /** The body as sent (after gzip, if any, is undone). */
  readonly body: Buffer;
}

export const SPAN_KIND = { internal: 1, server: 2, client: 3 } as const;

export interface OtlpReceiver {
  /** The base endpoint (`OTEL_EXPORTER_OTLP_ENDPOINT`), http://127.0.0.1:PORT */
  readonly endpoint: string;
  readonly spans: ReceivedSpan[];
  readonly requests: ReceivedRequest[];
  /** Resolves once `predicate` holds for the spans received, or rejects after `timeoutMs`. */
  waitFor(
    predicate: (spans: readonly ReceivedSpan[]) => boolean,
    timeoutMs?: number,
  ): Promise<void>;
  close(): Promise<void>;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const requests: ReceivedRequest[] = [];
  const waiters = new Set<() => void>();
  const server: Server = createServer((req, res) => {
    void handle(req).then(
      (answer) => {
        res.writeHead(answer.status, { 'content-type': answer.type });
        res.end(answer.body);
      },
      (error: unknown) => {
        res.writeHead(400, { 'content-type': 'text/plain' });
        res.end(error instanceof Error ? error.message : 'bad request');
      },
    );
  });

  async function handle(
    req: IncomingMessage,
  ): Promise<{ status: number; type: string; body: string | Buffer }> {
    if (req.method !== 'POST' || req.url !== '/v1/traces')
      return { status: 404, type: 'text/plain', body: 'not found' };
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    let body = Buffer.concat(chunks);
    if (req.headers['content-encoding'] === 'gzip') body = gunzipSync(body);
    const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim();
    if (type === 'application/x-protobuf') {
      requests.push({ protocol: 'http/protobuf', body });
      spans.push(...decodeProtobufRequest(body));
      notify();
      return { status: 200, type: 'application/x-protobuf', body: Buffer.alloc(0) };
    }
    if (type === 'application/json') {
      requests.push({ protocol: 'http/json', body });
      spans.push(...decodeJsonRequest(JSON.parse(body.toString('utf8')) as unknown));
      notify();
      return { status: 200, type: 'application/json', body: '{}' };
    }
    return { status: 415, type: 'text/plain', body: `unsupported content type ${type ?? ''}` };
  }

  function notify(): void {
    for (const waiter of waiters) waiter();
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    spans,
    requests,
    waitFor(predicate, timeoutMs = 15000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (!predicate(spans)) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(
              `spans not received within ${timeoutMs} ms; got: ${spans.map((s) => `${s.service}:${s.name}`).join(', ')}`,
            ),
          );
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// ---- OTLP/JSON --------------------------------------------------------------------------------------

type Json = Record<string, unknown>;

const asArray = (value: unknown): Json[] => (Array.isArray(value) ? (value as Json[]) : []);
const asObject = (value: unknown): Json =>
  typeof value === 'object' && value !== null ? (value as Json) : {};

function decodeJsonRequest(body: unknown): ReceivedSpan[] {
  const out: ReceivedSpan[] = [];
  for (const resourceSpans of asArray(asObject(body).resourceSpans)) {
    const resource = jsonAttributes(asObject(resourceSpans.resource).attributes);
    const service = String(resource['service.name'] ?? '');
    for (const scopeSpans of asArray(resourceSpans.scopeSpans)) {
      const scope = String(asObject(scopeSpans.scope).name ?? '');
      for (const span of asArray(scopeSpans.spans))
        out.push({
          traceId: String(span.traceId ?? ''),
          spanId: String(span.spanId ?? ''),
          parentSpanId: String(span.parentSpanId ?? ''),
          name: String(span.name ?? ''),
          kind: Number(span.kind ?? 0),
          attributes: jsonAttributes(span.attributes),
          statusCode: Number(asObject(span.status).code ?? 0),
          links: asArray(span.links).map((l) => ({
            traceId: String(l.traceId ?? ''),
            spanId: String(l.spanId ?? ''),
          })),
          service,
          scope,
        });
    }
  }
  return out;
}

function jsonAttributes(list: unknown): Record<string, AttributeValue> {
  const out: Record<string, AttributeValue> = {};
  for (const kv of asArray(list)) out[String(kv.key)] = jsonValue(asObject(kv.value));
  return out;
}

function jsonValue(value: Json): AttributeValue {
  if ('stringValue' in value) return String(value.stringValue);
  if ('boolValue' in value) return value.boolValue === true;
  // int64 is a decimal string in OTLP/JSON (a number is accepted too).
  if ('intValue' in value) return Number(value.intValue);
  if ('doubleValue' in value) return Number(value.doubleValue);
  if ('arrayValue' in value)
    return asArray(asObject(value.arrayValue).values).map((v) => jsonValue(v));
  return null;
}

// ---- protobuf wire format ---------------------------------------------------------------------------

/** One field of a protobuf message: its number and its value (varint, fixed or length-delimited bytes). */
interface Field {
  readonly number: number;
  readonly wireType: number;
  readonly varint?: bigint;
  readonly bytes?: Buffer;
  readonly fixed?: Buffer;
}

/** Reads the fields of one message (wire types 0 varint, 1 fixed64, 2 length-delimited, 5 fixed32). */
export function readFields(buffer: Buffer): Field[] {
  const fields: Field[] = [];
  let offset = 0;
  const varint = (): bigint => {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      if (offset >= buffer.length) throw new Error('protobuf: truncated varint');
      const byte = buffer[offset++] ?? 0;
      result |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return result;
      shift += 7n;
      if (shift > 63n) throw new Error('protobuf: varint too long');
    }
  };
  const take = (length: number): Buffer => {
    if (offset + length > buffer.length) throw new Error('protobuf: truncated field');
    const slice = buffer.subarray(offset, offset + length);
    offset += length;
    return slice;
  };
  while (offset < buffer.length) {
    const key = varint();
    const number = Number(key >> 3n);
    const wireType = Number(key & 7n);
    switch (wireType) {
      case 0:
        fields.push({ number, wireType, varint: varint() });
        break;
      case 1:
        fields.push({ number, wireType, fixed: take(8) });
        break;
      case 2:
        fields.push({ number, wireType, bytes: take(Number(varint())) });
        break;
      case 5:
        fields.push({ number, wireType, fixed: take(4) });
        break;
      default:
        throw new Error(`protobuf: unsupported wire type ${wireType}`);
    }
  }
  return fields;
}

const messages = (fields: Field[], number: number): Buffer[] =>
  fields.filter((f) => f.number === number && f.bytes !== undefined).map((f) => f.bytes as Buffer);
const firstBytes = (fields: Field[], number: number): Buffer =>
  messages(fields, number)[0] ?? Buffer.alloc(0);
const text = (fields: Field[], number: number): string =>
  firstBytes(fields, number).toString('utf8');
const hex = (fields: Field[], number: number): string => firstBytes(fields, number).toString('hex');
const varintOf = (fields: Field[], number: number): number =>
  Number(fields.find((f) => f.number === number && f.varint !== undefined)?.varint ?? 0n);

/** ExportTraceServiceRequest → spans (opentelemetry/proto/collector/trace/v1, trace/v1, common/v1). */
function decodeProtobufRequest(body: Buffer): ReceivedSpan[] {
  const out: ReceivedSpan[] = [];
  for (const resourceSpans of messages(readFields(body), 1)) {
    const rs = readFields(resourceSpans);
    const resource = protoAttributes(readFields(firstBytes(rs, 1)), 1);
    const service = String(resource['service.name'] ?? '');
    for (const scopeSpans of messages(rs, 2)) {
      const ss = readFields(scopeSpans);
      const scope = text(readFields(firstBytes(ss, 1)), 1);
      for (const spanBytes of messages(ss, 2)) {
        const span = readFields(spanBytes);
        out.push({
          traceId: hex(span, 1),
          spanId: hex(span, 2),
          parentSpanId: hex(span, 4),
          name: text(span, 5),
          kind: varintOf(span, 6),
          attributes: protoAttributes(span, 9),
          statusCode: varintOf(readFields(firstBytes(span, 15)), 3),
          links: messages(span, 13).map((link) => {
            const l = readFields(link);
            return { traceId: hex(l, 1), spanId: hex(l, 2) };
          }),
          service,
          scope,
        });
      }
    }
  }
  return out;
}

/** The repeated KeyValue field `number` of a message, as a record. */
function protoAttributes(fields: Field[], number: number): Record<string, AttributeValue> {
  const out: Record<string, AttributeValue> = {};
  for (const kvBytes of messages(fields, number)) {
    const kv = readFields(kvBytes);
    out[text(kv, 1)] = protoValue(readFields(firstBytes(kv, 2)));
  }
  return out;
}

/** AnyValue: string 1, bool 2, int64 3, double 4, ArrayValue 5. */
function protoValue(fields: Field[]): AttributeValue {
  const field = fields[0];
  if (field === undefined) return null;
  switch (field.number) {
    case 1:
      return (field.bytes ?? Buffer.alloc(0)).toString('utf8');
    case 2:
      return field.varint === 1n;
    case 3:
      return Number(BigInt.asIntN(64, field.varint ?? 0n));
    case 4:
      return (field.fixed ?? Buffer.alloc(8)).readDoubleLE(0);
    case 5:
      return messages(readFields(field.bytes ?? Buffer.alloc(0)), 1).map((v) =>
        protoValue(readFields(v)),
      );
    default:
      return null;
  }
}
