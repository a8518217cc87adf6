// Deeply nested JSON is a client error, never a 500. A 10,000-deep object in a tool's
// arguments overflowed the stack after parsing (JSON.stringify, validation) and came back as -32603 with a
// stack trace in the log. Every message is now refused before parsing when it nests deeper than 64 levels.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MCP_HEADERS, fixtureGatewayForFile } from '../support/gateway.js';
import { MAX_JSON_DEPTH, jsonNestingExceeds } from '../../../src/shared/json-depth.js';

const fixture = fixtureGatewayForFile({ bodyLimitBytes: 1024 * 1024 });

/** `levels` nested objects: {"a":{"a":…{}…}}. */
const nested = (levels: number): string =>
  '{"a":'.repeat(levels - 1) + '{}' + '}'.repeat(levels - 1);

function callWith(argumentsJson: string) {
  return fixture.gw.app.inject({
    method: 'POST',
    url: '/mcp',
    headers: { ...MCP_HEADERS, 'mcp-protocol-version': '2025-11-25' },
    payload:
      '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"createPayment","arguments":' +
      argumentsJson +
      '}}',
  });
}

test('a 10,000-deep argument is refused 400 -32600 JSON_TOO_DEEP before any backend call, no stack trace logged', async () => {
  const before = fixture.backend.requests.length;
  const response = await callWith(`{"amount":1,"payee":"p","memo":${nested(10_000)}}`);
  assert.equal(response.statusCode, 400);
  const body = response.json() as {
    id: unknown;
    error: { code: number; message: string; data: { reason: string; maxDepth: number } };
  };
  assert.equal(body.id, null);
  assert.equal(body.error.code, -32600);
  assert.equal(body.error.data.reason, 'JSON_TOO_DEEP');
  assert.equal(body.error.data.maxDepth, MAX_JSON_DEPTH);
  assert.match(body.error.message, /64 levels/);
  assert.equal(fixture.backend.requests.length, before);
  const log = fixture.gw.logs.join('');
  assert.ok(!/RangeError|Maximum call stack|\bat \S+ \(/.test(log), 'no stack trace in the log');
});

test('a message nested exactly to the limit is parsed and answered normally; one level deeper is refused', async () => {
  // The envelope takes 3 levels (message, params, arguments); the rest is the argument's own nesting.
  const response = await callWith(`{"amount":1,"payee":"p","memo":${nested(MAX_JSON_DEPTH - 3)}}`);
  assert.equal(response.statusCode, 200, response.body);
  const over = await callWith(`{"amount":1,"payee":"p","memo":${nested(MAX_JSON_DEPTH - 2)}}`);
  assert.equal(over.statusCode, 400);
});

test('the nesting scan ignores brackets inside strings, escaped quotes included', () => {
  assert.equal(jsonNestingExceeds(JSON.stringify({ s: '[[[[{{{{'.repeat(100) }), 4), false);
  assert.equal(jsonNestingExceeds(JSON.stringify({ s: '\\"[[[[' }), 1), false);
  assert.equal(jsonNestingExceeds('[[[]]]', 3), false);
  assert.equal(jsonNestingExceeds('[[[[]]]]', 3), true);
});

test('many brackets side by side are shallow; the count of openers only decides when it cannot exceed', () => {
  // 200 sibling arrays: far more openers than the bound, depth 2.
  const wide = JSON.stringify(Array.from({ length: 200 }, () => [1]));
  assert.equal(jsonNestingExceeds(wide, 4), false);
  // Exactly `max` openers, all nested: at the bound, not over it; one more nested is over.
  assert.equal(jsonNestingExceeds(nested(MAX_JSON_DEPTH)), false);
  assert.equal(jsonNestingExceeds(nested(MAX_JSON_DEPTH + 1)), true);
  // Mixed kinds count together: 2 braces and 2 brackets nested is depth 4.
  assert.equal(jsonNestingExceeds('{"a":[{"b":[1]}]}', 3), true);
  assert.equal(jsonNestingExceeds('{"a":[{"b":[1]}]}', 4), false);
  // Few openers and brackets only inside strings: never over.
  assert.equal(jsonNestingExceeds('"[[[[[["', 2), false);
  assert.equal(jsonNestingExceeds('', 0), false);
});
