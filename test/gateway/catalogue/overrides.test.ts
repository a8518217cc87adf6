// Operator overrides (gateway.backends[].tools): an operation's tool reshaped in configuration — name,
// title, description, annotations, and arguments hidden from agents with a fixed value — through the
// listing and a real call to the fixture backend, and refused at load when they cannot apply.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadCatalogue } from '../../../src/gateway/catalogue/load.js';
import { GatewayError } from '../../../src/gateway/errors.js';
import type { BackendOverrides } from '../../../src/gateway/catalogue/overrides.js';
import { startFixtureBackend, type FixtureBackend } from '../support/fixture-backend.js';
import {
  MCP_HEADERS,
  fixtureBackendConfig,
  startTestGateway,
  type TestGateway,
} from '../support/gateway.js';

const DOCUMENT = { file: 'test/fixtures/openapi/fixture-backend.yaml' };
const overrides = {
  getPayment: {
    name: 'lookUpPayment',
    title: 'Look up a payment',
    description: 'Looks up one payment by its id.',
    annotations: { openWorldHint: false },
    hidden: { verbose: true },
  },
};

describe('overrides through the MCP endpoint', () => {
  let backend: FixtureBackend;
  let gw: TestGateway;
  before(async () => {
    backend = await startFixtureBackend();
    gw = await startTestGateway({
      backends: [fixtureBackendConfig(backend.baseUrl, { tools: overrides })],
    });
  });
  after(async () => {
    await gw.close();
    await backend.close();
  });
  const rpc = async (method: string, params: Record<string, unknown>) => {
    const r = await gw.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { ...MCP_HEADERS, 'mcp-protocol-version': '2025-11-25' },
      payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
    return r.json() as { result: Record<string, unknown> };
  };

  test('the listing shows the operator’s name, title, description and annotations, without the hidden argument', async () => {
    const { result } = await rpc('tools/list', {});
    const tools = result.tools as Record<string, unknown>[];
    assert.equal(
      tools.some((t) => t.name === 'getPayment'),
      false,
    );
    const tool = tools.find((t) => t.name === 'lookUpPayment');
    assert.ok(tool);
    assert.equal(tool.title, 'Look up a payment');
    assert.equal(tool.description, 'Looks up one payment by its id.');
    assert.equal((tool.annotations as Record<string, unknown>).openWorldHint, false);
    assert.equal((tool.annotations as Record<string, unknown>).readOnlyHint, true, 'kept from GET');
    const schema = tool.inputSchema as { properties: Record<string, unknown>; required?: string[] };
    assert.deepEqual(Object.keys(schema.properties), ['paymentId']);
  });

  test('a call sends the fixed value; an agent cannot supply or replace it', async () => {
    const before = backend.requests.length;
    const ok = await rpc('tools/call', { name: 'lookUpPayment', arguments: { paymentId: 'p-1' } });
    assert.notEqual(ok.result.isError, true, JSON.stringify(ok.result));
    assert.equal(backend.requests.length, before + 1);
    assert.equal(backend.requests.at(-1)?.url, '/api/v1/payments/p-1?verbose=true');
    const refused = await rpc('tools/call', {
      name: 'lookUpPayment',
      arguments: { paymentId: 'p-1', verbose: false },
    });
    assert.equal(refused.result.isError, true);
    assert.match(JSON.stringify(refused.result.content), /verbose/);
    assert.equal(backend.requests.length, before + 1, 'the backend was not called');
  });
});

describe('overrides that cannot apply stop the catalogue from loading, naming the key', () => {
  const load = (tools: BackendOverrides) =>
    loadCatalogue([{ name: 'fixture', openapi: DOCUMENT, injectHeaders: {}, tools }]);
  const refused = (pattern: RegExp) => (error: unknown) =>
    error instanceof GatewayError && pattern.test(error.message);

  test('an operationId the document does not have', async () => {
    await assert.rejects(
      load({ getPaymnet: { title: 'typo' } }),
      refused(/gateway\.backends\[fixture\]\.tools\.getPaymnet: no operation/),
    );
  });

  test('a hidden argument the tool does not have, or a fixed value its schema refuses', async () => {
    await assert.rejects(
      load({ getPayment: { hidden: { verbosity: true } } }),
      refused(/tools\.getPayment\.hidden\.verbosity: the tool has no argument/),
    );
    await assert.rejects(
      load({ getPayment: { hidden: { verbose: 'yes' } } }),
      refused(/tools\.getPayment\.hidden\.verbose: the fixed value does not satisfy/),
    );
  });

  test('a new name that another tool already has', async () => {
    await assert.rejects(
      load({ getPayment: { name: 'createPayment' } }),
      refused(/two tools would be named "createPayment"/),
    );
  });

  test('a hidden required argument leaves the tool’s required list', async () => {
    const catalogue = await load({ getPayment: { hidden: { paymentId: 'p-9' } } });
    const tool = catalogue.byName.get('getPayment');
    assert.deepEqual(tool?.inputSchema.required ?? [], []);
    assert.deepEqual(tool?.fixedArguments, { paymentId: 'p-9' });
  });
});
