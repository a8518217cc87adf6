// Issue 27, "A catalogue for developers" and "Try it": the example-call generator (required fields with
// examples, defaults, enums, formats; $ref and allOf), the arguments form built from an input schema and
// read back (types, problems named by field, nothing outside the schema), the offered catalogue
// (approved and not held back only; products with their offered tools), and trap 5's gateway URL per
// environment (the served environment falls back to the local gateway, others to nothing).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  exampleArguments,
  exampleCall,
} from '../../../src/gateway/portal/catalogue/example-call.js';
import {
  argumentControls,
  argumentFields,
  argumentsFromForm,
} from '../../../src/gateway/portal/catalogue/schema-form.js';
import { developerCatalogue, unknownNames } from '../../../src/gateway/portal/catalogue/offered.js';
import { gatewayUrlOf } from '../../../src/gateway/admin/gateway-urls.js';
import type { AdminTool } from '../../../src/gateway/admin/tool-settings.js';
import type { Tool } from '../../../src/gateway/catalogue/types.js';

const SCHEMA = {
  type: 'object',
  required: ['accountId', 'limit', 'status', 'body', 'when', 'flag'],
  properties: {
    accountId: { type: 'string', examples: ['DE89370400440532013000'] },
    limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
    status: { type: 'string', enum: ['INITIATED', 'CANCELLED'] },
    when: { type: 'string', format: 'date' },
    flag: { type: 'boolean' },
    optionalNote: { type: 'string' },
    body: {
      allOf: [
        { $ref: '#/$defs/Party' },
        {
          type: 'object',
          required: ['amount'],
          properties: { amount: { type: 'number', minimum: 0.01 } },
        },
      ],
    },
    tags: { type: 'array', items: { type: 'string' } },
  },
  $defs: {
    Party: {
      type: 'object',
      required: ['name'],
      properties: { name: { type: 'string' }, country: { type: 'string', enum: ['DE', 'FR'] } },
    },
  },
};

describe('example calls from input schemas (issue 27, catalogue: example calls)', () => {
  test('required fields only, with the schema’s example, default, first enum value or a typed value', () => {
    assert.deepEqual(exampleArguments(SCHEMA), {
      accountId: 'DE89370400440532013000',
      limit: 20,
      status: 'INITIATED',
      body: { name: '<name>', amount: 0.01 },
      when: '2026-01-15',
      flag: false,
    });
  });

  test('the call is a JSON-RPC tools/call request naming the tool', () => {
    assert.deepEqual(exampleCall('getPayment', { type: 'object', properties: {} }), {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'getPayment', arguments: {} },
    });
  });

  test('a reference cycle is cut, not followed forever', () => {
    const cyclic = {
      type: 'object',
      required: ['node'],
      properties: { node: { $ref: '#/$defs/Node' } },
      $defs: {
        Node: {
          type: 'object',
          required: ['next'],
          properties: { next: { $ref: '#/$defs/Node' } },
        },
      },
    };
    assert.doesNotThrow(() => JSON.stringify(exampleArguments(cyclic)));
  });
});

describe('Try it arguments form (issue 27, "arguments form generated from the tool’s schema")', () => {
  const fields = argumentFields(SCHEMA);

  test('scalars become controls, a small object a fieldset, arrays JSON text', () => {
    const kinds = Object.fromEntries(fields.map((f) => [f.property, f.kind]));
    assert.deepEqual(kinds, {
      accountId: 'string',
      limit: 'integer',
      status: 'enum',
      when: 'string',
      flag: 'boolean',
      optionalNote: 'string',
      body: 'object',
      tags: 'json',
    });
    const markup = argumentControls(fields, {}).toString();
    assert.match(markup, /<legend>body \(required\)<\/legend>/);
    assert.match(markup, /<label for="f-arg_body_country">country<\/label>/);
    assert.match(
      markup,
      /value="DE89370400440532013000"/,
      'the schema’s example is the initial value',
    );
  });

  test('a submitted form becomes typed arguments; empty optional fields are left out', () => {
    const parsed = argumentsFromForm(fields, {
      'arg/accountId': 'DE02100100109307118603',
      'arg/limit': '5',
      'arg/status': '1',
      'arg/when': '',
      'arg/flag': 'true',
      'arg/body/name': 'Acme',
      'arg/body/country': '0',
      'arg/body/amount': '12.5',
      'arg/tags': '["a","b"]',
      'arg/notInTheSchema': 'ignored',
    });
    assert.deepEqual(parsed.problems, {});
    assert.deepEqual(parsed.arguments, {
      accountId: 'DE02100100109307118603',
      limit: 5,
      status: 'CANCELLED',
      flag: true,
      body: { name: 'Acme', country: 'DE', amount: 12.5 },
      tags: ['a', 'b'],
    });
  });

  test('values that do not fit their type are problems named by their field', () => {
    const parsed = argumentsFromForm(fields, {
      'arg/limit': '2.5',
      'arg/body/amount': 'lots',
      'arg/status': '7',
      'arg/tags': '[1,',
    });
    assert.deepEqual(Object.keys(parsed.problems).sort(), [
      'arg/body/amount',
      'arg/limit',
      'arg/status',
      'arg/tags',
    ]);
    assert.match(parsed.problems['arg/limit'] ?? '', /whole number/);
    assert.match(parsed.problems['arg/tags'] ?? '', /not valid JSON/);
  });
});

function entry(name: string, state: 'approved' | 'revoked', heldBack = false) {
  const tool = {
    name,
    approval: { state, source: 'configuration' },
    definition: { hash: 'h', heldBack, changes: [] },
  } as unknown as AdminTool;
  const definition = {
    name,
    description: `${name} does things.`,
    inputSchema: { type: 'object', properties: {} },
    annotations: {},
    securityClass: 'user-scoped',
    backend: 'payments',
    scopes: ['payments:read'],
    operation: { method: 'GET', pathTemplate: '/x', parameters: [] },
  } as unknown as Tool;
  return { tool, definition };
}

describe('the offered catalogue (issue 27: held-back or unapproved tools are not offered)', () => {
  const catalogue = developerCatalogue(
    [
      entry('getPayment', 'approved'),
      entry('secretTool', 'revoked'),
      entry('changedTool', 'approved', true),
    ],
    { payments: ['getPayment', 'secretTool'], hidden: ['secretTool'] },
  );

  test('only approved tools that are not held back; products with their offered tools only', () => {
    assert.deepEqual(
      catalogue.tools.map((t) => t.name),
      ['getPayment'],
    );
    assert.deepEqual(catalogue.products, [{ name: 'payments', tools: ['getPayment'] }]);
    assert.equal(catalogue.byName.get('getPayment')?.securityClass, 'user-scoped');
    assert.deepEqual(catalogue.byName.get('getPayment')?.scopes, ['payments:read']);
    assert.deepEqual(catalogue.byName.get('getPayment')?.products, ['payments']);
  });

  test('a request may name offered tools and products only', () => {
    assert.deepEqual(unknownNames(catalogue, ['getPayment', 'product:payments']), []);
    assert.deepEqual(
      unknownNames(catalogue, ['secretTool', 'changedTool', 'product:hidden', 'nope']),
      ['secretTool', 'changedTool', 'product:hidden', 'nope'],
    );
  });
});

describe('trap 5: each environment’s gateway URL (issue 27)', () => {
  const settings = {
    served: 'development' as const,
    localMcpUrl: 'http://127.0.0.1:8080/mcp',
    configured: { staging: 'https://staging.example.com/mcp' },
  };

  test('a configured URL wins; the served environment falls back to this deployment’s gateway', () => {
    assert.equal(gatewayUrlOf(settings, 'staging'), 'https://staging.example.com/mcp');
    assert.equal(gatewayUrlOf(settings, 'development'), 'http://127.0.0.1:8080/mcp');
  });

  test('an environment without a configured gateway has none, never the local one', () => {
    assert.equal(gatewayUrlOf(settings, 'production'), null);
    assert.equal(gatewayUrlOf({ ...settings, served: 'production' }, 'development'), null);
  });
});
