import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RawJson, stringifyWithRaw } from '../../../src/gateway/mcp/raw-json.js';

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
