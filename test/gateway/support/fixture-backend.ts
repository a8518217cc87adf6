// A tiny node:http backend serving the operations of test/fixtures/openapi/fixture-backend.yaml, on a real
// socket (port 0). It records the headers of every request so tests can check what the gateway sent.
import {
  createServer,
  type IncomingHttpHeaders,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

export const FIXTURE_DOCUMENT = join(process.cwd(), 'test/fixtures/openapi/fixture-backend.yaml');
export const BANK_KEY = 'bank-key-0000-secret-1234';

export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

export interface FixtureBackend {
  readonly baseUrl: string;
  readonly requests: RecordedRequest[];
  close(): Promise<void>;
}

function json(res: ServerResponse, status: number, body: unknown, type = 'application/json'): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** A body as given: a 2xx the gateway cannot read as the JSON the operation declares. */
function raw(res: ServerResponse, status: number, type: string, text: string): void {
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** `busyMicros`: CPU work per request (benchmarks simulating a backend that validates and stores). */
export async function startFixtureBackend(
  prefix = '/api/v1',
  options: { readonly busyMicros?: number } = {},
): Promise<FixtureBackend> {
  const busy = options.busyMicros ?? 0;
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      if (busy > 0) spin(busy);
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      const url = new URL(req.url ?? '/', 'http://fixture');
      const path = url.pathname.startsWith(prefix) ? url.pathname.slice(prefix.length) : '';
      route(req.method ?? '', path, url, body, req.headers, res);
    });
  });
  server.keepAliveTimeout = 60000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${prefix}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function spin(micros: number): void {
  const until = process.hrtime.bigint() + BigInt(micros) * 1000n;
  while (process.hrtime.bigint() < until) {
    // busy wait: simulated request processing
  }
}

function route(
  method: string,
  path: string,
  url: URL,
  body: string,
  headers: IncomingHttpHeaders,
  res: ServerResponse,
): void {
  let m: RegExpExecArray | null;
  if (method === 'POST' && path === '/payments') {
    const input = JSON.parse(body) as { amount: unknown; payee: string };
    return json(res, 201, {
      id: 'PO-1',
      status: 'INITIATED',
      amount: input.amount,
      payee: input.payee,
    });
  }
  if ((m = /^\/payments\/([^/]+)$/.exec(path)) && method === 'GET') {
    const id = decodeURIComponent(m[1] ?? '');
    if (id === 'broken') return json(res, 200, { id, status: 'UNKNOWN' });
    if (id === 'truncated') return raw(res, 200, 'application/json', '{"id":"truncated","sta');
    if (id === 'html-page') return raw(res, 200, 'text/html', '<html><body>Hello</body></html>');
    if (id === 'missing')
      return json(
        res,
        404,
        { type: 'about:blank', title: 'Not Found', status: 404, detail: `No payment ${id}` },
        'application/problem+json',
      );
    return json(res, 200, { id, status: 'INITIATED', amount: { value: '10.00', currency: 'EUR' } });
  }
  if ((m = /^\/payments\/([^/]+)\/cancel$/.exec(path)) && method === 'POST') {
    return json(res, 200, {
      id: decodeURIComponent(m[1] ?? ''),
      status: 'CANCELLED',
      amount: { value: '1', currency: 'EUR' },
    });
  }
  if (method === 'GET' && path === '/slow') {
    const delay = Number(url.searchParams.get('delayMs') ?? '0');
    setTimeout(() => json(res, 200, { waited: delay }), delay).unref();
    return;
  }
  if (method === 'POST' && path === '/banks/lookup') {
    if (headers['api-key'] !== BANK_KEY)
      return json(res, 401, { title: 'Unauthorized', status: 401 }, 'application/problem+json');
    return json(res, 200, { name: 'Fixture Bank', bic: 'FIXTDEFFXXX' });
  }
  if (method === 'GET' && path === '/me/balance') return json(res, 200, { balance: '100.00' });
  if (method === 'GET' && path === '/conformance/simple-text')
    return json(res, 200, { text: 'This is a simple text response for testing.' });
  if (method === 'GET' && path === '/conformance/error')
    return json(
      res,
      500,
      {
        title: 'Internal Server Error',
        status: 500,
        detail: 'This tool intentionally returns an error for testing',
      },
      'application/problem+json',
    );
  return json(res, 404, { title: 'Not Found', status: 404 }, 'application/problem+json');
}
