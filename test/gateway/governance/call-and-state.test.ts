// The pure parts of the governed step (issue 25): the GovernedCall built from a tools/call (arguments
// hash over RFC 8785 canonical JSON, money read by JSON pointer and converted, refused when unreadable)
// and the signed requestState of the 2026-07-28 consent round trip (bound, expiring, tamper-evident).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import {
  argumentsHash,
  buildGovernedCall,
  readPointer,
} from '../../../src/gateway/governance/call.js';
import { RequestStateSigner } from '../../../src/gateway/governance/request-state.js';
import type { Caller } from '../../../src/gateway/caller.js';
import type { Tool } from '../../../src/gateway/catalogue/types.js';
import { fakeConvert } from './doubles.js';

const caller: Caller = {
  requestId: 'r1',
  clientIp: '127.0.0.1',
  subscription: {
    id: 'sub_1',
    application: 'agent',
    environment: 'development',
    tools: 'all',
    rateLimitPerMinute: null,
  },
  user: {
    subject: 'alice',
    claims: { sub: 'alice', scope: 'openid payments' },
    expiresAt: 0,
    tokenHash: 'h',
  },
};
const tool = {
  name: 'createPayment',
  backend: 'payments',
  operationId: 'createPayment',
  securityClass: 'optional',
  annotations: { destructiveHint: false },
} as unknown as Tool;
const money = { amount: '/body/amount/value', currency: '/body/amount/currency' };

test('issue 25: the arguments hash is SHA-256 of the RFC 8785 canonical JSON (key order does not matter)', () => {
  const canonical = '{"a":[true,null,"x"],"b":{"c":1.5,"d":"é"}}';
  const expected = createHash('sha256').update(canonical).digest('hex');
  assert.equal(argumentsHash({ b: { d: 'é', c: 1.5 }, a: [true, null, 'x'] }), expected);
});

test('RFC 6901 pointers: escapes, arrays, absent members', () => {
  const doc = { 'a/b': { '~k': [10, 20] } };
  assert.equal(readPointer(doc, '/a~1b/~0k/1'), 20);
  assert.equal(readPointer(doc, '/a~1b/~0k/01'), undefined);
  assert.equal(readPointer(doc, '/missing'), undefined);
  assert.equal(readPointer(doc, ''), doc);
});

test('issue 25: a call to a money tool carries the caller, the amount converted, and a fresh call id', () => {
  const args = { body: { amount: { value: 1500, currency: 'USD' } } };
  const built = buildGovernedCall({
    caller,
    tool,
    arguments: args,
    sent: args,
    money,
    convert: fakeConvert,
    now: new Date('2026-11-26T10:00:00Z'),
  });
  assert.ok(built.ok);
  const call = built.call;
  assert.match(call.callId, /^[0-9a-f-]{36}$/);
  assert.deepEqual(call.money, {
    amount: '1500',
    currency: 'USD',
    baseCurrency: 'EUR',
    baseMinor: 135000,
  });
  assert.deepEqual(call.caller.scopes, ['openid', 'payments']);
  assert.equal(call.caller.subject, 'alice');
  assert.equal(call.argumentsHash, argumentsHash(args));
  const again = buildGovernedCall({
    caller,
    tool,
    arguments: args,
    sent: args,
    money,
    convert: fakeConvert,
    now: new Date(),
  });
  assert.ok(again.ok);
  assert.notEqual(again.call.callId, call.callId);
});

test('issue 25: a money tool whose amount cannot be read is refused (fails closed)', () => {
  const args = { body: { amount: { currency: 'EUR' } } };
  const built = buildGovernedCall({
    caller,
    tool,
    arguments: args,
    sent: args,
    money,
    convert: fakeConvert,
    now: new Date(),
  });
  assert.equal(built.ok, false);
  assert.match(
    (built as { message: string }).message,
    /moves money, but its amount \(\/body\/amount\/value\)/,
  );
});

const binding = {
  subscription: 'sub_1',
  subject: 'alice',
  tool: 'createPayment',
  argumentsHash: 'a'.repeat(64),
  policyVersion: 3,
};

test('issue 25: requestState round trip — any replica with the same secret verifies it; another key, an edit or expiry is refused', () => {
  const secret = 'x'.repeat(32);
  const a = RequestStateSigner.fromSecrets(secret, undefined);
  const b = RequestStateSigner.fromSecrets(secret, 'some-pepper-value-123');
  const state = a.sign({ approvalId: 'apv_1', callId: 'c1', binding, expiresAt: 2_000 });
  const checked = b.verify(state, 1_000);
  assert.ok(checked.ok);
  assert.deepEqual(checked.state, { approvalId: 'apv_1', callId: 'c1', binding, expiresAt: 2_000 });
  assert.deepEqual(b.verify(state, 2_001), { ok: false, reason: 'expired' });
  const other = RequestStateSigner.fromSecrets(undefined, 'another-pepper-value-1');
  assert.deepEqual(other.verify(state, 1_000), { ok: false, reason: 'signature' });
  const [prefix, body, mac] = state.split('.');
  const edited = JSON.parse(Buffer.from(String(body), 'base64url').toString('utf8'));
  edited.p = 4;
  const forged = `${prefix}.${Buffer.from(JSON.stringify(edited)).toString('base64url')}.${mac}`;
  assert.deepEqual(a.verify(forged, 1_000), { ok: false, reason: 'signature' });
  assert.deepEqual(a.verify('nonsense', 1_000), { ok: false, reason: 'malformed' });
  assert.deepEqual(a.verify(42, 1_000), { ok: false, reason: 'malformed' });
  assert.deepEqual(a.verify(`tg1.${'A'.repeat(3000)}.x`, 1_000), {
    ok: false,
    reason: 'malformed',
  });
});
