// End to end with the official MCP TypeScript SDK client over Streamable HTTP: a gateway listening on a
// real socket (port 0) in front of a fixture backend on another real socket.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startFixtureBackend, type FixtureBackend } from '../gateway/support/fixture-backend.js';
import {
  fixtureBackendConfig,
  startTestGateway,
  type TestGateway,
} from '../gateway/support/gateway.js';

let backend: FixtureBackend;
let gw: TestGateway;
let url: URL;

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

before(async () => {
  backend = await startFixtureBackend();
  const down = await closedPort();
  gw = await startTestGateway({
    backends: [
      fixtureBackendConfig(backend.baseUrl),
      {
        name: 'down',
        baseUrl: `http://127.0.0.1:${down}/v1`,
        openapi: { file: 'test/fixtures/openapi/fixture-backend.yaml' },
        approve: ['getPayment'],
      },
    ],
  });
  const address = await gw.app.listen({ port: 0, host: '127.0.0.1' });
  url = new URL(`${address}/mcp`);
});
after(async () => {
  await gw.close();
  await backend.close();
});

let lastTransport: StreamableHTTPClientTransport | undefined;

async function connect(): Promise<Client> {
  const client = new Client({ name: 'e2e', version: '1.0.0' });
  lastTransport = new StreamableHTTPClientTransport(url);
  await client.connect(lastTransport);
  return client;
}

test('SDK client connects, negotiates 2025-11-25 and lists the approved tools', async () => {
  const client = await connect();
  try {
    assert.equal(lastTransport?.protocolVersion, '2025-11-25');
    assert.deepEqual(client.getServerCapabilities(), { tools: { listChanged: false } });
    assert.equal(client.getServerVersion()?.name, 'toolgate');
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    assert.ok(names.includes('createPayment'));
    assert.ok(names.includes('down__getPayment'), 'second backend, collision-renamed');
    assert.equal(names.includes('down__createPayment'), false, 'not approved');
    const create = tools.find((t) => t.name === 'createPayment');
    assert.equal(create?.inputSchema.type, 'object');
    assert.deepEqual(create?.annotations, {
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
    });
  } finally {
    await client.close();
  }
});

test('SDK client calls a payment tool and gets structured content (validated by the SDK against outputSchema)', async () => {
  const client = await connect();
  try {
    const result = await client.callTool({
      name: 'createPayment',
      arguments: { body: { amount: { value: '12.50', currency: 'EUR' }, payee: 'Alice' } },
    });
    assert.equal(result.isError, undefined);
    assert.deepEqual(result.structuredContent, {
      id: 'PO-1',
      status: 'INITIATED',
      amount: { value: '12.50', currency: 'EUR' },
      payee: 'Alice',
    });
    const content = result.content as { type: string; text: string }[];
    assert.deepEqual(JSON.parse(content[0]?.text ?? ''), result.structuredContent);
  } finally {
    await client.close();
  }
});

test('SDK client: invalid arguments give an isError result the model can act on', async () => {
  const client = await connect();
  try {
    const before = backend.requests.length;
    const result = await client.callTool({
      name: 'createPayment',
      arguments: { body: { payee: '' } },
    });
    assert.equal(result.isError, true);
    const text = (result.content as { text: string }[])[0]?.text ?? '';
    assert.match(text, /missing required property "amount"/);
    assert.match(text, /argument body\.payee: .*minLength/);
    assert.equal(backend.requests.length, before);
  } finally {
    await client.close();
  }
});

test('SDK client: backend down → isError with a plain explanation, no address', async () => {
  const client = await connect();
  try {
    const result = await client.callTool({
      name: 'down__getPayment',
      arguments: { paymentId: 'x' },
    });
    assert.equal(result.isError, true);
    const text = (result.content as { text: string }[])[0]?.text ?? '';
    assert.match(text, /backend service is unavailable/);
    assert.equal(/127\.0\.0\.1|ECONNREFUSED|at /.test(text), false, text);
  } finally {
    await client.close();
  }
});

test('SDK client: backend slower than the total timeout → isError saying so', async () => {
  const client = await connect();
  try {
    const result = await client.callTool({ name: 'slowOperation', arguments: { delayMs: 3000 } });
    assert.equal(result.isError, true);
    assert.match(
      (result.content as { text: string }[])[0]?.text ?? '',
      // headersMs and totalMs are both 1000 in the fixture config: either timer may fire first.
      /within 1000 ms \((headers|total) timeout\)/,
    );
    const quick = await client.callTool({ name: 'slowOperation', arguments: { delayMs: 5 } });
    assert.deepEqual(quick.structuredContent, { waited: 5 });
  } finally {
    await client.close();
  }
});

test('SDK client: unknown tool → JSON-RPC error -32602', async () => {
  const client = await connect();
  try {
    await assert.rejects(client.callTool({ name: 'nope', arguments: {} }), (e: unknown) => {
      return (e as { code?: number }).code === -32602;
    });
  } finally {
    await client.close();
  }
});
