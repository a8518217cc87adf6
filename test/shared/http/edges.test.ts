// HTTP edges on both services, over real sockets (inject() bypasses Node's parser, where most of these
// refusals happen): every refusal made before a route runs is in the service's own format with a documented
// code (docs/errors.md, "Refusals before any route"), never echoes the request, says `Connection: close`
// when the connection is closed afterwards, and is read completely by the client (no reset). Requests that
// arrive on kept-alive connections after shutdown begins get 503 SHUTTING_DOWN.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../../src/config/load.js';
import { createLogger } from '../../../src/shared/log/logger.js';
import { openGatewayService } from '../../../src/gateway/service.js';
import { openPaymentsService } from '../../../src/payments/service.js';
import type { Service } from '../../../src/shared/service.js';
import { LogCapture } from '../../helpers/capture.js';

interface RawResponse {
  readonly status: number;
  readonly headers: ReadonlyMap<string, string>;
  readonly body: string;
}

/** A client socket that reads responses one at a time and records how the connection ended. */
class RawConnection {
  private buffer = Buffer.alloc(0);
  private waiting: (() => void) | undefined;
  ended = false;
  error: Error | undefined;

  private constructor(private readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.waiting?.();
    });
    socket.on('end', () => {
      this.ended = true;
      this.waiting?.();
    });
    socket.on('error', (error) => {
      this.error = error;
      this.waiting?.();
    });
  }

  static open(base: string): Promise<RawConnection> {
    const url = new URL(base);
    return new Promise((resolve, reject) => {
      const socket = connect(Number(url.port), url.hostname, () =>
        resolve(new RawConnection(socket)),
      );
      socket.once('error', reject);
    });
  }

  send(raw: string): void {
    this.socket.write(raw);
  }

  /** The next complete response (Content-Length framed); fails if the connection ends or resets first. */
  async response(): Promise<RawResponse> {
    for (;;) {
      const parsed = this.parse();
      if (parsed) return parsed;
      if (this.error) throw this.error;
      if (this.ended) throw new Error(`connection ended before a full response: ${this.text()}`);
      await new Promise<void>((resolve) => (this.waiting = resolve));
      this.waiting = undefined;
    }
  }

  /** Resolves when the server has closed the connection; the way it ended (FIN or reset). */
  async closed(): Promise<'end' | Error> {
    while (!this.ended && !this.error) {
      await new Promise<void>((resolve) => (this.waiting = resolve));
      this.waiting = undefined;
    }
    return this.error ?? 'end';
  }

  destroy(): void {
    this.socket.destroy();
  }

  private text(): string {
    return this.buffer.toString('latin1').slice(0, 200);
  }

  private parse(): RawResponse | undefined {
    const end = this.buffer.indexOf('\r\n\r\n');
    if (end < 0) return undefined;
    const [statusLine = '', ...lines] = this.buffer
      .subarray(0, end)
      .toString('latin1')
      .split('\r\n');
    const headers = new Map<string, string>();
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
    }
    const length = Number(headers.get('content-length') ?? '0');
    if (this.buffer.length < end + 4 + length) return undefined;
    const body = this.buffer.subarray(end + 4, end + 4 + length).toString('utf8');
    this.buffer = this.buffer.subarray(end + 4 + length);
    return { status: Number(statusLine.split(' ')[1]), headers, body };
  }
}

function mcpPost(id: number): string {
  // No subscription key needed: the refusal under test comes before authentication.
  const body = JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' });
  return (
    'POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
    `Accept: application/json, text/event-stream\r\nContent-Length: ${body.length}\r\n\r\n${body}`
  );
}

const get = (path: string, extra = ''): string =>
  `GET ${path} HTTP/1.1\r\nHost: localhost\r\n${extra}\r\n`;

/** Headers over Node's 16 KiB limit; the value is a marker the response must never contain. */
const MARKER = 'edge-marker-';
const HUGE_HEADER = `X-Padding: ${MARKER.repeat(2000)}\r\n`;

function assertProblem(response: RawResponse, status: number, code: string): void {
  assert.equal(response.status, status);
  assert.match(response.headers.get('content-type') ?? '', /^application\/problem\+json/);
  const body = JSON.parse(response.body) as Record<string, unknown>;
  assert.equal(body.code, code);
  assert.equal(body.status, status);
}

function assertRpcError(response: RawResponse, status: number, rpc: number, reason: string): void {
  assert.equal(response.status, status);
  assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
  const body = JSON.parse(response.body) as {
    jsonrpc: string;
    id: unknown;
    error: { code: number; data: { reason: string } };
  };
  assert.equal(body.jsonrpc, '2.0');
  assert.equal(body.id, null);
  assert.equal(body.error.code, rpc);
  assert.equal(body.error.data.reason, reason);
}

describe('HTTP edges', () => {
  let dir: string;
  let gateway: Service;
  let payments: Service;
  let gatewayBase: string;
  let paymentsBase: string;
  const open: RawConnection[] = [];
  const connection = async (base: string) => {
    const c = await RawConnection.open(base);
    open.push(c);
    return c;
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'toolgate-edges-'));
    const config = loadConfig({
      env: {},
      overrides: {
        dataDir: dir,
        logging: { level: 'warn' },
        gateway: { port: 0 },
        payments: { port: 0 },
      },
    });
    const { logger } = createLogger({ level: 'silent', destination: new LogCapture() });
    payments = await openPaymentsService(config, logger);
    gateway = await openGatewayService(config, logger);
    paymentsBase = await payments.listen();
    gatewayBase = await gateway.listen();
  });

  after(async () => {
    for (const c of open) c.destroy();
    await Promise.allSettled([gateway.close(0), payments.close(0)]);
    rmSync(dir, { recursive: true, force: true });
  });

  test('oversized headers: 431 in the service format, Connection: close, no echo, read completely', async () => {
    for (const [base, path, check] of [
      [
        () => paymentsBase,
        '/payments/payment-order/v1/payments',
        (r: RawResponse) => assertProblem(r, 431, 'HEADERS_TOO_LARGE'),
      ],
      [
        () => gatewayBase,
        '/mcp',
        (r: RawResponse) => assertRpcError(r, 431, -31031, 'HEADERS_TOO_LARGE'),
      ],
      [
        () => gatewayBase,
        '/healthz',
        (r: RawResponse) => assertProblem(r, 431, 'HEADERS_TOO_LARGE'),
      ],
    ] as const) {
      const c = await connection(base());
      c.send(`GET ${path} HTTP/1.1\r\nHost: localhost\r\n${HUGE_HEADER}\r\n`);
      const response = await c.response();
      check(response);
      assert.equal(response.headers.get('connection'), 'close', path);
      assert.ok(!response.body.includes(MARKER), 'the header value is not echoed');
      assert.equal(await c.closed(), 'end', `${path}: closed with FIN after the answer, not reset`);
    }
  });

  test('a request line that is not HTTP: 400 MALFORMED_REQUEST, Connection: close', async () => {
    const c = await connection(paymentsBase);
    c.send('HELLO THERE\r\n\r\n');
    const response = await c.response();
    assertProblem(response, 400, 'MALFORMED_REQUEST');
    assert.equal(response.headers.get('connection'), 'close');
    assert.equal(await c.closed(), 'end');
  });

  test('a path parameter over 256 characters: 414 URI_TOO_LONG without the URL; the connection stays usable', async () => {
    const long = 'R'.repeat(300);
    const c = await connection(paymentsBase);
    c.send(get(`/payments/payment-order/v1/payments/${long}`));
    const response = await c.response();
    assertProblem(response, 414, 'URI_TOO_LONG');
    assert.ok(!response.body.includes(long), 'the URL is not echoed');
    c.send(get('/healthz'));
    assert.equal((await c.response()).status, 200, 'kept alive: the next request is answered');
  });

  test('a bad percent-encoding in a path parameter: 400 BAD_URL without the URL', async () => {
    const c = await connection(paymentsBase);
    c.send(get('/payments/payment-order/v1/payments/%E0%A4%Azzz'));
    const response = await c.response();
    assertProblem(response, 400, 'BAD_URL');
    assert.ok(!response.body.includes('zzz'), 'the URL is not echoed');
  });

  test('an unknown route does not echo its path', async () => {
    const c = await connection(paymentsBase);
    c.send(get('/no-such-route-qq7'));
    const response = await c.response();
    assertProblem(response, 404, 'NOT_FOUND');
    assert.ok(!response.body.includes('qq7'));
  });

  // Runs last: it shuts both services down.
  test('after SIGTERM, a request on a kept-alive connection gets 503 SHUTTING_DOWN and Connection: close', async () => {
    const toPayments = await connection(paymentsBase);
    const toGateway = await connection(gatewayBase);
    const probe = await connection(gatewayBase);
    toPayments.send(get('/healthz'));
    toGateway.send(get('/healthz'));
    probe.send(get('/healthz'));
    assert.equal((await toPayments.response()).status, 200);
    assert.equal((await toGateway.response()).status, 200);
    assert.equal((await probe.response()).status, 200);

    const closing = Promise.all([payments.close(5000), gateway.close(5000)]);

    toPayments.send(get('/payments/payment-order/v1/payments', 'X-User-Id: u1\r\n'));
    const refused = await toPayments.response();
    assertProblem(refused, 503, 'SHUTTING_DOWN');
    assert.equal(refused.headers.get('connection'), 'close');
    assert.equal(refused.headers.get('retry-after'), '1');
    assert.equal(await toPayments.closed(), 'end');

    toGateway.send(mcpPost(2));
    const rpc = await toGateway.response();
    assertRpcError(rpc, 503, -31054, 'SHUTTING_DOWN');
    assert.equal(rpc.headers.get('connection'), 'close');
    assert.equal(await toGateway.closed(), 'end');

    // A probe is still answered (readiness says draining), and its connection closes after it.
    probe.send(get('/readyz'));
    const readiness = await probe.response();
    assert.equal(readiness.status, 503);
    assert.equal(readiness.headers.get('connection'), 'close');
    assert.equal(await probe.closed(), 'end');

    await closing;
  });
});
