// Issue 25, "Pinned tool definitions": a tool's definition (name, description, schemas, annotations,
// overrides, the operation it calls) has a hash — SHA-256 of its RFC 8785 canonical JSON — and two
// definitions differ by JSON-pointer paths (added / removed / changed, old → new).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import {
  definitionChanges,
  definitionHash,
  formatChanges,
  toolDefinition,
} from '../../../src/gateway/catalogue/definition.js';
import type { OperationBinding, Tool } from '../../../src/gateway/catalogue/types.js';

const OPERATION: OperationBinding = {
  method: 'GET',
  pathTemplate: '/payments/{paymentId}',
  parameters: [
    { argument: 'paymentId', name: 'paymentId', in: 'path', required: true, explode: true },
  ],
};

const TOOL: Tool = {
  name: 'getPayment',
  title: 'Get a payment',
  description: 'Reads one payment',
  inputSchema: {
    type: 'object',
    properties: { paymentId: { type: 'string' }, verbose: { type: 'boolean' } },
    required: ['paymentId'],
  },
  annotations: { readOnlyHint: true },
  securityClass: 'public',
  backend: 'payments',
  operationId: 'getPayment',
  operation: OPERATION,
};

describe('tool definitions', () => {
  it('the hash is SHA-256 of the canonical JSON, independent of key order', () => {
    const def = toolDefinition(TOOL);
    const reordered = toolDefinition({
      ...TOOL,
      inputSchema: {
        required: ['paymentId'],
        properties: { verbose: { type: 'boolean' }, paymentId: { type: 'string' } },
        type: 'object',
      },
    });
    assert.equal(definitionHash(def), definitionHash(reordered));
    // RFC 8785: members sorted by code unit, no whitespace.
    const text = JSON.stringify(def, Object.keys(def).sort());
    assert.ok(text.startsWith('{"annotations":'));
    assert.match(definitionHash(def), /^[0-9a-f]{64}$/);
    assert.equal(
      definitionHash({ b: 1, a: [true, null] }),
      createHash('sha256').update('{"a":[true,null],"b":1}').digest('hex'),
    );
  });

  it('covers what agents see and what the gateway calls: each change moves the hash', () => {
    const base = definitionHash(toolDefinition(TOOL));
    const variants: Tool[] = [
      { ...TOOL, description: 'Reads a payment' },
      { ...TOOL, title: 'Payment' },
      { ...TOOL, annotations: { readOnlyHint: false } },
      { ...TOOL, inputSchema: { ...TOOL.inputSchema, required: [] } },
      { ...TOOL, outputSchema: { type: 'object' } },
      { ...TOOL, securityClass: 'user-scoped' },
      { ...TOOL, operation: { ...OPERATION, pathTemplate: '/v2/payments/{paymentId}' } },
      { ...TOOL, scopes: ['payments:read'] },
      { ...TOOL, fixedArguments: { verbose: true } },
    ];
    const hashes = variants.map((t) => definitionHash(toolDefinition(t)));
    for (const h of hashes) assert.notEqual(h, base);
    assert.equal(new Set(hashes).size, variants.length);
  });

  it('hidden argument values enter as digests, never as the value', () => {
    const def = toolDefinition({ ...TOOL, fixedArguments: { tenant: 'secret-tenant-42' } });
    assert.doesNotMatch(JSON.stringify(def), /secret-tenant-42/);
    assert.match(
      String((def.hiddenArguments as Record<string, string>).tenant),
      /^sha256:[0-9a-f]{64}$/,
    );
  });

  it('the difference names added, removed and changed paths as JSON pointers, old → new', () => {
    const before = toolDefinition(TOOL);
    const after = toolDefinition({
      ...TOOL,
      description: 'Reads a payment',
      inputSchema: {
        type: 'object',
        properties: { paymentId: { type: 'string' }, 'a/b~c': { type: 'integer' } },
        required: ['paymentId', 'a/b~c'],
      },
      annotations: {},
    });
    assert.deepEqual(definitionChanges(before, after), [
      { op: 'removed', path: '/annotations/readOnlyHint', before: true },
      {
        op: 'changed',
        path: '/description',
        before: 'Reads one payment',
        after: 'Reads a payment',
      },
      { op: 'added', path: '/inputSchema/properties/a~1b~0c', after: { type: 'integer' } },
      { op: 'removed', path: '/inputSchema/properties/verbose', before: { type: 'boolean' } },
      { op: 'added', path: '/inputSchema/required/1', after: 'a/b~c' },
    ]);
    assert.deepEqual(definitionChanges(before, toolDefinition(TOOL)), []);
    assert.deepEqual(formatChanges(definitionChanges(before, after)).slice(0, 3), [
      '- /annotations/readOnlyHint: true',
      '~ /description: "Reads one payment" → "Reads a payment"',
      '+ /inputSchema/properties/a~1b~0c: {"type":"integer"}',
    ]);
    assert.deepEqual(
      formatChanges([{ op: 'changed', path: '/x', before: 'a', after: 'b'.repeat(50) }], 10),
      ['~ /x: "a" → "bbbbbbbb…'],
    );
  });
});
