// End to end with the official MCP TypeScript SDK client against the compact tools/list view (issue 13):
// a backend whose schemas repeat a Party, so the shown input and output schemas carry `$defs` and `$ref`s.
// The SDK client lists the tools and calls one; it validates structuredContent against the outputSchema it
// was shown (SDK 1.x, Ajv's default draft-07 class), so a call that succeeds means the $refs resolved.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { startTestGateway, type TestGateway } from '../gateway/support/gateway.js';

let upstream: Server;
let calls = 0;
let gw: TestGateway;
let url: URL;

before(async () => {
  // POST /v1/transfers: answers with an id and the transfer, as the document declares.
  upstream = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      calls += 1;
      const transfer = JSON.parse(Buffer.concat(chunks).toString('utf8')) as object;
      const text = JSON.stringify({ id: 'T-1', transfer });
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const port = (upstream.address() as AddressInfo).port;
  gw = await startTestGateway({
    backends: [
      {
        name: 'transfers',
        baseUrl: `http://127.0.0.1:${port}/v1`,
        openapi: { file: 'test/fixtures/openapi/transfers-31.yaml' },
        approve: 'all',
      },
    ],
  });
  const address = await gw.app.listen({ port: 0, host: '127.0.0.1' });
  url = new URL(`${address}/mcp`);
});
after(async () => {
  await gw.close();
  await new Promise<void>((resolve) => upstream.close(() => resolve()));
});

async function connect(): Promise<Client> {
  const client = new Client({ name: 'e2e-compact', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(url));
  return client;
}

const PARTY_REF = { $ref: '#/$defs/Party' };

test('SDK client lists compact schemas: the repeated Party is one $defs entry, referenced in input and output', async () => {
  const client = await connect();
  try {
    const { tools } = await client.listTools();
    const tool = tools.find((t) => t.name === 'createTransfer');
    assert.ok(tool);
    const body = (tool.inputSchema.properties as Record<string, Record<string, unknown>>).body;
    assert.deepEqual((body?.properties as Record<string, unknown>).payer, PARTY_REF);
    assert.deepEqual((body?.properties as Record<string, unknown>).payee, PARTY_REF);
    assert.deepEqual((tool.inputSchema as Record<string, unknown>).$defs, {
      // Nested objects are shown open (the compact view's lever); the gateway still refuses extra fields.
      Party: {
        type: 'object',
        required: ['name'],
        properties: {
          name: { type: 'string' },
          country: { type: 'string', pattern: '^[A-Z]{2}$' },
          kind: { type: 'string', enum: ['PERSON', 'ORGANISATION'] },
        },
      },
    });
    const shownTransfer = tool.outputSchema?.properties?.transfer as Record<string, unknown>;
    assert.deepEqual((shownTransfer.properties as Record<string, unknown>).payee, PARTY_REF);
    assert.ok((tool.outputSchema as Record<string, unknown>).$defs);

    // The SDK's own validator resolves the shown $refs and still checks what they point to.
    const validate = new AjvJsonSchemaValidator().getValidator(tool.outputSchema ?? {});
    const output = (payee: object) => ({ id: 'T', transfer: { payer: { name: 'A' }, payee } });
    assert.equal(validate(output({ name: 'B' })).valid, true);
    assert.equal(validate(output({ name: 'B', kind: 'ROBOT' })).valid, false);
    assert.equal(validate(output({ kind: 'PERSON' })).valid, false);
  } finally {
    await client.close();
  }
});

test('SDK client calls the tool: structuredContent passes the SDK check against the shown outputSchema', async () => {
  const client = await connect();
  try {
    await client.listTools(); // the SDK caches the shown outputSchema from the listing
    const transfer = {
      payer: { name: 'Ada Lovelace', country: 'GB', kind: 'PERSON' },
      payee: { name: 'Analytical Engines Ltd', kind: 'ORGANISATION' },
      note: 'Thanks',
    };
    const result = await client.callTool({ name: 'createTransfer', arguments: { body: transfer } });
    assert.equal(result.isError, undefined, JSON.stringify(result));
    assert.deepEqual(result.structuredContent, { id: 'T-1', transfer });
  } finally {
    await client.close();
  }
});

test('SDK client: a maxLength not shown is still enforced by the gateway, the backend is not called', async () => {
  const client = await connect();
  try {
    const before = calls;
    const result = await client.callTool({
      name: 'createTransfer',
      arguments: { body: { payer: { name: 'x'.repeat(71) }, payee: { name: 'B' } } },
    });
    assert.equal(result.isError, true);
    assert.match(
      (result.content as { text: string }[])[0]?.text ?? '',
      /argument body\.payer\.name: must NOT have more than 70 characters \(rule: maxLength\)/,
    );
    assert.equal(calls, before);
  } finally {
    await client.close();
  }
});
