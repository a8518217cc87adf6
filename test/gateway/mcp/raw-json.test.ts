import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RawJson, stringifyWithRaw, withSourceText } from '../../../src/gateway/mcp/raw-json.js';
import { mapOutcome } from '../../../src/gateway/upstream/result.js';

test('pre-serialised fragments are spliced in verbatim; everything else is plain JSON', () => {
  const value = {
    id: 'x',
    result: { tools: new RawJson('[{"a":1},{"b":[2]}]'), next: 'c' },
    list: [new RawJson('3')],
  };
  const text = stringifyWithRaw(value);
  assert.deepEqual(JSON.parse(text), {
    id: 'x',
    result: { tools: [{ a: 1 }, { b: [2] }], next: 'c' },
    list: [3],
  });
  assert.equal(
    stringifyWithRaw({ a: '\u0000raw-guess\u0000' }),
    JSON.stringify({ a: '\u0000raw-guess\u0000' }),
  );
});

test('a backend JSON body is spliced into the result as structuredContent, its parsed value left as it was', () => {
  // Spacing and key order a re-serialisation would change: the text sent is the backend's own.
  const body = '{ "id": "pay_1",  "amount": {"value": "12.50", "currency": "EUR"}, "n": 1.0 }';
  const result = mapOutcome(
    { kind: 'response', status: 201, contentType: 'application/json', body },
    { structured: true, hide: [], expectJson: true, operation: 'createPayment' },
  );
  assert.deepEqual(result.structuredContent, {
    id: 'pay_1',
    amount: { value: '12.50', currency: 'EUR' },
    n: 1,
  });
  assert.deepEqual(Object.keys(result.structuredContent ?? {}), ['id', 'amount', 'n']);
  const text = stringifyWithRaw({ jsonrpc: '2.0', id: 1, result });
  assert.ok(text.includes(`"structuredContent":${body}`), text);
  assert.deepEqual(JSON.parse(text), JSON.parse(JSON.stringify({ jsonrpc: '2.0', id: 1, result })));
  // Outside stringifyWithRaw the value serialises as itself.
  assert.equal(
    JSON.stringify(result.structuredContent),
    '{"id":"pay_1","amount":{"value":"12.50","currency":"EUR"},"n":1}',
  );
});

test('a body with its own toJSON member is serialised the ordinary way and keeps the member', () => {
  const value = JSON.parse('{"toJSON":"mine","a":1}') as Record<string, unknown>;
  assert.equal(withSourceText(value, '{"toJSON":"mine","a":1}'), value);
  assert.equal(stringifyWithRaw({ value }), '{"value":{"toJSON":"mine","a":1}}');
  assert.equal(stringifyWithRaw([new RawJson('[1, 2]')]), '[[1, 2]]');
  assert.equal(JSON.stringify([new RawJson('[1, 2]')]), '[[1,2]]');
});
