// The argument and output validators follow the schema a tool has now, not the first one seen under its
// name: a catalogue reload or an upstream MCP server's new list (issue 28, "argument validation against the
// upstream's inputSchema") can change a tool's schema without changing its name.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ArgumentValidator } from '../../../src/gateway/mcp/arguments.js';
import type { Tool } from '../../../src/gateway/catalogue/types.js';

function tool(inputSchema: Record<string, unknown>, outputSchema?: Record<string, unknown>): Tool {
  return {
    name: 'notes_add_note',
    inputSchema,
    outputSchema,
    annotations: {},
    securityClass: 'public',
    backend: 'notes',
    mcp: { name: 'add_note' },
  };
}

const V1 = { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] };
const V2 = {
  type: 'object',
  properties: { text: { type: 'string' }, tag: { type: 'string' } },
  required: ['text', 'tag'],
};

test('a tool whose inputSchema changed under the same name is checked against the new schema', () => {
  const validator = new ArgumentValidator();
  assert.equal(validator.validate(tool(V1), { text: 'a' }), undefined);
  const problems = validator.validate(tool(V2), { text: 'a' });
  assert.deepEqual(problems, ['arguments: missing required property "tag" (rule: required)']);
  // And back: the first schema again (a revert) accepts what it accepted.
  assert.equal(
    validator.validate(tool(JSON.parse(JSON.stringify(V1)) as typeof V1), { text: 'a' }),
    undefined,
  );
});

test('a tool whose outputSchema changed under the same name is checked against the new one', () => {
  const validator = new ArgumentValidator();
  const out1 = { type: 'object', properties: { n: { type: 'number' } } };
  const out2 = { type: 'object', properties: { n: { type: 'string' } } };
  assert.equal(validator.validateOutput(tool(V1, out1), { n: 1 }), undefined);
  assert.deepEqual(validator.validateOutput(tool(V1, out2), { n: 1 }), [
    'field n: must be string (rule: type)',
  ]);
});
