// OpenAPI → tool mapping on real-world-shaped documents: the payment service's own documents (3.1), a
// 3.0 pet store with $refs, allOf, nullable, path-level parameters and names needing sanitising, a 3.1
// ledger, and 1,000 generated operations.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { buildCatalogue } from '../../../src/gateway/catalogue/build.js';
import { loadCatalogue, loadDocument } from '../../../src/gateway/catalogue/load.js';
import { TOOL_NAME } from '../../../src/gateway/catalogue/names.js';
import type { Catalogue, JsonObject, Tool } from '../../../src/gateway/catalogue/types.js';
import { largeDocument } from '../support/large-document.js';

const fixture = (name: string) => join(process.cwd(), 'test/fixtures/openapi', name);

function tool(catalogue: Catalogue, name: string): Tool {
  const found = catalogue.byName.get(name);
  assert.ok(found, `tool ${name} exists (have: ${[...catalogue.byName.keys()].join(', ')})`);
  return found;
}
const props = (schema: JsonObject | undefined) =>
  (schema?.properties ?? {}) as Record<string, JsonObject>;

async function fixtures(): Promise<Catalogue> {
  const pets = await loadDocument({
    name: 'pets',
    openapi: { file: fixture('petstore-30.yaml') },
    injectHeaders: {},
  });
  const ledger = await loadDocument({
    name: 'ledger',
    openapi: { file: fixture('ledger-31.json') },
    injectHeaders: {},
  });
  return buildCatalogue([
    { backend: 'pets', document: pets, injectedHeaders: [] },
    { backend: 'ledger', document: ledger, injectedHeaders: [] },
  ]);
}

test('payment service documents: every operation becomes a tool with its security class', async () => {
  const catalogue = await loadCatalogue([
    {
      name: 'payments',
      openapi: { file: 'src/payments/openapi/payment-order.yaml' },
      injectHeaders: { 'api-key': 'x' },
    },
    {
      name: 'accounts',
      openapi: { file: 'src/payments/openapi/accounts.yaml' },
      injectHeaders: {},
    },
  ]);
  const names = catalogue.tools.map((t) => t.name);
  for (const expected of [
    'createPayment',
    'updatePayment',
    'cancelPayment',
    'validatePayment',
    'fetchPaymentFees',
    'fetchBankDetails',
    'getPayment',
    'getPaymentHistory',
    'listPayments',
    'getMyAccountBalance',
    'getMyTransactionHistory',
  ])
    assert.ok(names.includes(expected), expected);
  assert.deepEqual(names, [...names].sort(), 'sorted by name');
  assert.equal(tool(catalogue, 'createPayment').securityClass, 'user-scoped');
  assert.equal(tool(catalogue, 'getMyAccountBalance').securityClass, 'user-scoped');
  assert.equal(tool(catalogue, 'validatePayment').securityClass, 'public');
  assert.equal(tool(catalogue, 'fetchPaymentFees').securityClass, 'optional');
  assert.equal(tool(catalogue, 'fetchBankDetails').securityClass, 'public');
  assert.deepEqual(catalogue.warnings, []);
});

test('payment service documents: credentials never become arguments; path-level parameters do', async () => {
  const catalogue = await loadCatalogue([
    {
      name: 'payments',
      openapi: { file: 'src/payments/openapi/payment-order.yaml' },
      injectHeaders: { 'api-key': 'x' },
    },
  ]);
  for (const t of catalogue.tools) {
    const keys = Object.keys(props(t.inputSchema)).map((k) => k.toLowerCase());
    for (const forbidden of ['api-key', 'authorization', 'ocp-apim-subscription-key', 'cookie'])
      assert.ok(!keys.includes(forbidden), `${t.name} exposes ${forbidden}`);
    assert.equal(t.inputSchema.type, 'object');
    assert.equal(
      JSON.stringify(t.inputSchema).includes('$ref'),
      false,
      `${t.name} has no $ref left`,
    );
  }
  const get = tool(catalogue, 'getPayment');
  assert.ok('externalReferenceNo' in props(get.inputSchema));
  assert.ok((get.inputSchema.required as string[]).includes('externalReferenceNo'));
  assert.deepEqual(
    get.operation?.parameters.find((p) => p.name === 'externalReferenceNo')?.in,
    'path',
  );
  assert.equal(get.outputSchema?.type, 'object');
});

test('MCP server/tools#tool-annotations: hints from the method and name', async () => {
  const catalogue = await loadCatalogue([
    {
      name: 'payments',
      openapi: { file: 'src/payments/openapi/payment-order.yaml' },
      injectHeaders: {},
    },
  ]);
  assert.equal(tool(catalogue, 'getPayment').annotations.readOnlyHint, true);
  assert.equal(tool(catalogue, 'updatePayment').annotations.idempotentHint, true);
  assert.equal(tool(catalogue, 'updatePayment').annotations.readOnlyHint, false);
  assert.equal(tool(catalogue, 'cancelPayment').annotations.destructiveHint, true);
  assert.equal(tool(catalogue, 'createPayment').annotations.destructiveHint, false);
  assert.equal(tool(catalogue, 'createPayment').annotations.idempotentHint, false);
});

test('OpenAPI 3.0: names sanitised, missing operationId named from the route, long names cut to 64', async () => {
  const catalogue = await fixtures();
  for (const t of catalogue.tools) assert.match(t.name, TOOL_NAME);
  tool(catalogue, 'list_pets');
  tool(catalogue, 'post_pets');
  const long = catalogue.tools.find((t) => t.name.startsWith('archivePet'));
  assert.ok(long);
  assert.equal(long.name.length, 64);
  assert.equal(new Set(catalogue.tools.map((t) => t.name)).size, catalogue.tools.length);
});

test('collision rule: a later backend’s duplicate name becomes <backend>__<name>', async () => {
  const catalogue = await fixtures();
  assert.equal(tool(catalogue, 'getPet').backend, 'pets');
  assert.equal(tool(catalogue, 'ledger__getPet').backend, 'ledger');
  assert.ok(catalogue.warnings.some((w) => w.includes('ledger__getPet')));
});

test('OpenAPI 3.0: nullable, boolean exclusiveMinimum, example, readOnly in inputs', async () => {
  const catalogue = await fixtures();
  const add = tool(catalogue, 'post_pets');
  const body = props(add.inputSchema).body;
  assert.ok(body);
  const fields = props(body);
  assert.deepEqual(fields.tag?.type, ['string', 'null']);
  assert.deepEqual(fields.kind?.enum, ['dog', 'cat', null]);
  assert.deepEqual(fields.name?.examples, ['Rex']);
  assert.equal('id' in fields, false, 'readOnly id is not an input');
  assert.equal('nullable' in (fields.tag ?? {}), false);
  const limit = props(tool(catalogue, 'list_pets').inputSchema).limit;
  assert.equal(limit?.exclusiveMinimum, 0);
  assert.equal('minimum' in (limit ?? {}), false);
});

test('path-level parameters merge with operation-level ones (operation wins)', async () => {
  const catalogue = await fixtures();
  const get = tool(catalogue, 'getPet');
  const p = props(get.inputSchema);
  assert.equal(p.petId?.type, 'integer');
  assert.equal(p.petId?.description, "The pet's id.");
  assert.deepEqual(p.verbose?.enum, ['yes', 'no'], 'operation-level verbose overrides path-level');
  assert.deepEqual(get.inputSchema.required, ['petId', 'verbose']);
  assert.equal(get.description, 'Returns one pet with its owner.');
});

test('headers: reserved, identity and cookie parameters are not exposed; declared ones are', async () => {
  const catalogue = await fixtures();
  const list = tool(catalogue, 'list_pets');
  const keys = Object.keys(props(list.inputSchema));
  assert.deepEqual(keys.sort(), ['X-Trace-Hint', 'limit', 'tags'].sort());
  assert.equal(list.operation?.parameters.find((p) => p.name === 'tags')?.explode, false);
});

test('allOf and recursive $refs survive as a finite, serialisable schema', async () => {
  const catalogue = await fixtures();
  const get = tool(catalogue, 'getPet');
  assert.ok(get.outputSchema);
  assert.equal(get.outputSchema.type, 'object');
  assert.ok(Array.isArray(get.outputSchema.allOf));
  const text = JSON.stringify(get.outputSchema);
  assert.ok(text.length < 20000);
  assert.equal(text.includes('"secret"'), false, 'writeOnly properties are not outputs');
  assert.equal(
    tool(catalogue, 'list_pets').outputSchema,
    undefined,
    'array responses have no outputSchema',
  );
});

test('operations declaring a JSON 2xx response are marked, also without an outputSchema', async () => {
  const catalogue = await fixtures();
  const pets = tool(catalogue, 'list_pets');
  assert.equal(pets.outputSchema, undefined, 'an array response has no outputSchema');
  assert.equal(pets.operation?.jsonResponse, true);
  assert.equal(tool(catalogue, 'getPet').operation?.jsonResponse, true, 'JSON with a charset');
  assert.equal(tool(catalogue, 'removePet').operation?.jsonResponse, false, '204 without content');
});

test('security classes: inherited requirement, empty security, x-toolgate-auth, {} alternative', async () => {
  const catalogue = await fixtures();
  assert.equal(tool(catalogue, 'getPet').securityClass, 'user-scoped', 'document-level oauth2');
  assert.equal(tool(catalogue, 'list_pets').securityClass, 'public', 'security: []');
  assert.equal(tool(catalogue, 'ledger_entries_create').securityClass, 'optional');
  assert.equal(tool(catalogue, 'replaceEntry').securityClass, 'optional');
  assert.equal(tool(catalogue, 'ledger__getPet').securityClass, 'user-scoped');
});

test('3.1: +json media types, type arrays, $ref siblings; colliding parameter names get a prefix', async () => {
  const catalogue = await fixtures();
  const create = tool(catalogue, 'ledger_entries_create');
  assert.equal(create.operation?.body?.contentType, 'application/vnd.ledger+json');
  const memo = props(props(create.inputSchema).body).memo;
  assert.deepEqual(memo?.type, ['string', 'null']);
  const replace = tool(catalogue, 'replaceEntry');
  assert.deepEqual(Object.keys(props(replace.inputSchema)).sort(), ['body', 'id', 'query_id']);
  assert.equal(replace.annotations.idempotentHint, true);
});

test('operations whose required body is not JSON are skipped with a warning', async () => {
  const catalogue = await fixtures();
  assert.equal(catalogue.byName.has('uploadPhoto'), false);
  assert.ok(
    catalogue.warnings.some((w) => w.includes('/pets/{petId}/photo') && w.includes('skipped')),
  );
});

test('x-mcp-annotations override the derived hints', async () => {
  const catalogue = await fixtures();
  const archive = catalogue.tools.find((t) => t.name.startsWith('archivePet'));
  assert.deepEqual(archive?.annotations, {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    title: 'Archive',
  });
  assert.equal(tool(catalogue, 'removePet').annotations.destructiveHint, true);
});

test('1,000 operations: unique names, sorted, each with a compiled-ready object schema', () => {
  const catalogue = buildCatalogue([
    { backend: 'big', document: largeDocument(1000), injectedHeaders: [] },
  ]);
  assert.equal(catalogue.tools.length, 1000);
  assert.equal(catalogue.byName.size, 1000);
  assert.equal(catalogue.tools[0]?.name, 'operation0000');
  assert.equal(catalogue.tools[999]?.name, 'operation0999');
});

test('documents that are not OpenAPI 3.x are refused with the backend named', async () => {
  await assert.rejects(
    loadDocument({
      name: 'old',
      openapi: { file: fixture('../../../package.json') },
      injectHeaders: {},
    }),
    /backend old: cannot load its OpenAPI document: only OpenAPI 3.0 and 3.1/,
  );
});
