// Exact backend requests from tool arguments.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { OperationBinding } from '../../../src/gateway/catalogue/types.js';
import { ArgumentError, buildBackendRequest } from '../../../src/gateway/upstream/build-request.js';
import { nextTraceparent } from '../../../src/gateway/upstream/trace.js';

const binding: OperationBinding = {
  method: 'POST',
  pathTemplate: '/accounts/{accountId}/payments/{ref}',
  parameters: [
    { argument: 'accountId', name: 'accountId', in: 'path', required: true, explode: true },
    { argument: 'ref', name: 'ref', in: 'path', required: true, explode: true },
    { argument: 'tags', name: 'tags', in: 'query', required: false, explode: true },
    { argument: 'ids', name: 'ids', in: 'query', required: false, explode: false },
    { argument: 'limit', name: 'limit', in: 'query', required: false, explode: true },
    {
      argument: 'Idempotency-Key',
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      explode: true,
    },
  ],
  body: { argument: 'body', required: true, contentType: 'application/json' },
};

test('path parameters are percent-encoded (no traversal, no query injection)', () => {
  const r = buildBackendRequest(binding, { accountId: '../admin', ref: 'a b?c=1#x', body: {} });
  assert.equal(r.path, '/accounts/..%2Fadmin/payments/a%20b%3Fc%3D1%23x');
});

test('dot segments in path parameters are encoded, so no value can change the path', () => {
  const cases: ReadonlyArray<readonly [string, string]> = [
    ['..', '%2E%2E'],
    ['.', '%2E'],
    ['...', '%2E%2E%2E'],
    ['a/b', 'a%2Fb'],
    ['../x', '..%2Fx'],
    ['v1.2', 'v1.2'],
  ];
  for (const [value, encoded] of cases) {
    const r = buildBackendRequest(binding, { accountId: value, ref: 'R', body: {} });
    assert.equal(r.path, `/accounts/${encoded}/payments/R`, `value ${JSON.stringify(value)}`);
  }
});

test('query: arrays exploded or comma-joined, numbers as text, absent values omitted', () => {
  const r = buildBackendRequest(binding, {
    accountId: 'A',
    ref: 'R',
    tags: ['x', 'y&z'],
    ids: [1, 2],
    limit: 5,
    body: {},
  });
  assert.equal(r.path, '/accounts/A/payments/R?tags=x&tags=y%26z&ids=1%2C2&limit=5');
});

test('declared headers and the JSON body are sent; nothing else', () => {
  const r = buildBackendRequest(binding, {
    accountId: 'A',
    ref: 'R',
    'Idempotency-Key': 'k-1',
    body: { amount: '1.00' },
  });
  assert.deepEqual(r.headers, { 'Idempotency-Key': 'k-1', 'content-type': 'application/json' });
  assert.equal(r.body, '{"amount":"1.00"}');
  assert.equal(r.method, 'POST');
});

test('header values with CR/LF are refused (header injection)', () => {
  assert.throws(
    () =>
      buildBackendRequest(binding, {
        accountId: 'A',
        ref: 'R',
        'Idempotency-Key': 'a\r\nX-User-Id: 1',
        body: {},
      }),
    (e: unknown) => e instanceof ArgumentError && e.argument === 'Idempotency-Key',
  );
});

test('W3C trace-context#traceparent-header: continue the trace id with a new parent id, or start one', () => {
  const incoming = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
  const next = nextTraceparent(incoming);
  assert.match(next, /^00-0af7651916cd43dd8448eb211c80319c-[0-9a-f]{16}-01$/);
  assert.notEqual(next.split('-')[2], 'b7ad6b7169203331');
  for (const bad of [
    undefined,
    'garbage',
    '00-00000000000000000000000000000000-b7ad6b7169203331-01',
  ]) {
    const fresh = nextTraceparent(bad);
    assert.match(fresh, /^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    assert.notEqual(fresh.split('-')[1], '00000000000000000000000000000000');
  }
});
