import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RawJson, encodeWithRaw, withSourceText } from '../../../src/gateway/mcp/raw-json.js';
import { mapOutcome } from '../../../src/gateway/mcp/tool-result.js';

/** What the endpoint sends for `value`, as text. */
const sentText = (value: unknown): string => encodeWithRaw(value).toString('utf8');

test('pre-serialised fragments are spliced in verbatim; everything else is plain JSON', () => {
  const value = {
    id: 'x',
    result: { tools: new RawJson('[{"a":1},{"b":[2]}]'), next: 'c' },
    list: [new RawJson('3')],
  };
  const text = sentText(value);
  assert.deepEqual(JSON.parse(text), {
    id: 'x',
    result: { tools: [{ a: 1 }, { b: [2] }], next: 'c' },
    list: [3],
  });
  assert.equal(
    sentText({ a: '\u0000raw-guess\u0000' }),
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
  const text = sentText({ jsonrpc: '2.0', id: 1, result });
  assert.ok(text.includes(`"structuredContent":${body}`), text);
  assert.deepEqual(JSON.parse(text), JSON.parse(JSON.stringify({ jsonrpc: '2.0', id: 1, result })));
  // Outside encodeWithRaw the value serialises as itself.
  assert.equal(
    JSON.stringify(result.structuredContent),
    '{"id":"pay_1","amount":{"value":"12.50","currency":"EUR"},"n":1}',
  );
});

test('a body with its own toJSON member is serialised the ordinary way and keeps the member', () => {
  const value = JSON.parse('{"toJSON":"mine","a":1}') as Record<string, unknown>;
  assert.equal(withSourceText(value, '{"toJSON":"mine","a":1}'), value);
  assert.equal(sentText({ value }), '{"value":{"toJSON":"mine","a":1}}');
  assert.equal(sentText([new RawJson('[1, 2]')]), '[[1, 2]]');
  assert.equal(JSON.stringify([new RawJson('[1, 2]')]), '[[1,2]]');
});

test('encodeWithRaw writes UTF-8, a RawJson copied from its kept encoding', () => {
  const page = new RawJson('[{"name":"pay","description":"Zahlung über 10 €"}]');
  const value = {
    jsonrpc: '2.0',
    id: 'ü-1',
    result: { tools: page, nextCursor: 'c', structured: withSourceText({ a: 1 }, '{ "a": 1 }') },
  };
  const bytes = encodeWithRaw(value);
  assert.equal(
    bytes.toString('utf8'),
    '{"jsonrpc":"2.0","id":"ü-1","result":{"tools":[{"name":"pay","description":"Zahlung über 10 €"}],"nextCursor":"c","structured":{ "a": 1 }}}',
  );
  assert.ok(bytes.includes(page.bytes), 'the page is in the response byte for byte');
  assert.equal(page.bytes, page.bytes, 'the encoding is made once and kept');
  // Only source texts, or nothing spliced at all: the same text, encoded once.
  const plain = { id: 1, result: withSourceText({ b: [1] }, '{"b": [1]}'), s: 'ĳ' };
  assert.equal(encodeWithRaw(plain).toString('utf8'), '{"id":1,"result":{"b": [1]},"s":"ĳ"}');
  assert.equal(encodeWithRaw({ x: '€' }).toString('utf8'), '{"x":"€"}');
  // A RawJson at the very start or end of the output (no text around it).
  assert.equal(encodeWithRaw(new RawJson('[1]')).toString('utf8'), '[1]');
});
