import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  KEY_LENGTH,
  generateSubscriptionKey,
  isWellFormedKey,
} from '../../../../src/gateway/auth/keys/format.js';
import { hashSubscriptionKey } from '../../../../src/gateway/auth/keys/hash.js';
import { constantTimeEqual } from '../../../../src/gateway/auth/keys/compare.js';
import { maskSecret } from '../../../../src/shared/log/mask.js';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

describe('subscription keys', () => {
  test('Decision jwt/key-format: keys are tgk_ + 24 base62 random chars + 6 base62 checksum chars', () => {
    const key = generateSubscriptionKey();
    assert.match(key, /^tgk_[0-9A-Za-z]{30}$/);
    assert.equal(key.length, KEY_LENGTH);
    assert.equal(isWellFormedKey(key), true);
  });

  test('Decision jwt/key-format: the random part carries at least 128 bits of entropy', () => {
    assert.ok(24 * Math.log2(62) >= 128);
    const keys = new Set(Array.from({ length: 2000 }, generateSubscriptionKey));
    assert.equal(keys.size, 2000);
    // Every base62 symbol appears in the random part (uniform alphabet, no truncated range).
    const seen = new Set([...keys].flatMap((k) => [...k.slice(4, 28)]));
    assert.equal(seen.size, 62);
  });

  test('Decision jwt/key-format: the checksum catches a single-character typo', () => {
    const key = generateSubscriptionKey();
    let caught = 0;
    let tried = 0;
    for (let i = 4; i < key.length; i++) {
      const original = key[i] as string;
      const replacement = BASE62[(BASE62.indexOf(original) + 1) % 62] as string;
      const typo = key.slice(0, i) + replacement + key.slice(i + 1);
      tried += 1;
      if (!isWellFormedKey(typo)) caught += 1;
    }
    assert.equal(caught, tried);
  });

  test('Decision jwt/key-format: garbage is rejected before any lookup', () => {
    const key = generateSubscriptionKey();
    for (const bad of [
      '',
      'tgk_',
      key.slice(0, -1),
      `${key}x`,
      key.replace('tgk_', 'tgx_'),
      key.replace(/.$/, '-'),
      `${key.slice(0, 10)}é${key.slice(11)}`,
      42,
      null,
    ])
      assert.equal(isWellFormedKey(bad), false, String(bad));
  });

  test('Decision jwt/key-hash: the hash is stable, is not the key, and depends on the pepper', () => {
    const key = generateSubscriptionKey();
    const h = hashSubscriptionKey(key);
    assert.equal(h, hashSubscriptionKey(key));
    assert.match(h, /^[0-9a-f]{64}$/);
    assert.ok(!h.includes(key.slice(4)));
    const peppered = hashSubscriptionKey(key, 'server-pepper');
    assert.notEqual(peppered, h);
    assert.equal(peppered, hashSubscriptionKey(key, 'server-pepper'));
    assert.notEqual(peppered, hashSubscriptionKey(key, 'other-pepper'));
    assert.notEqual(hashSubscriptionKey(generateSubscriptionKey()), h);
  });

  test('DESIGN Secure by default: maskSecret shows … and at most the last 4 characters', () => {
    const key = generateSubscriptionKey();
    assert.equal(maskSecret(key), `tgk_…${key.slice(-4)}`);
    assert.equal(maskSecret('eyJhbGciOiJSUzI1NiJ9.payload.signature1234'), '…1234');
    assert.equal(maskSecret('short'), '…');
    assert.equal(maskSecret('abcdefghijkl'), '…kl');
    assert.equal(maskSecret(''), '…');
    assert.equal(maskSecret(undefined), '…');
  });

  test('Decision jwt/key-hash: constantTimeEqual compares exactly', () => {
    assert.equal(constantTimeEqual('abc', 'abc'), true);
    assert.equal(constantTimeEqual('abc', 'abd'), false);
    assert.equal(constantTimeEqual('abc', 'abcd'), false);
    assert.equal(constantTimeEqual('', ''), true);
  });
});
