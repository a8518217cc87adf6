import { test } from 'node:test';
import assert from 'node:assert/strict';
import { asciiJson } from '../../../src/gateway/mcp/tool-listing.js';

test('tool listings are written in ASCII and read back as the same JSON', () => {
  const value = {
    description: 'Überweisung — 25 € to 東京, 😀 and a lone \ud800',
    plain: 'no escapes "here"\n',
    del: '\u007f',
  };
  const json = JSON.stringify(value);
  const ascii = asciiJson(json);
  assert.match(ascii, /^[\x20-\x7e]*$/);
  assert.deepEqual(JSON.parse(ascii), value);
  assert.equal(asciiJson('{"a":"b"}'), '{"a":"b"}');
  assert.ok(ascii.includes('\\u00dcberweisung') && ascii.includes('\\ud83d\\ude00'));
});
