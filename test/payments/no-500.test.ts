// Never a 500 for a client mistake: arbitrary JSON bodies, query strings and header values sent to
// every operation answer with a 2xx or a 4xx problem.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { openHarness, userHeaders, BASE, type Harness } from './harness.js';

let h: Harness;
before(async () => {
  h = await openHarness('sqlite');
});
after(async () => h.close());

const routes: [string, string][] = [
  ['POST', `${BASE}/payments`],
  ['POST', `${BASE}/payments/validate`],
  ['PUT', `${BASE}/payments/PO-20260101-AAAAAAAAAAAA`],
  ['POST', `${BASE}/payments/PO-20260101-AAAAAAAAAAAA/cancel`],
  ['GET', `${BASE}/payments`],
  ['GET', '/accounts/v1/me/transactions'],
  ['POST', '/internal/payments/PO-1/status'],
];

test('arbitrary input never produces a 5xx', async () => {
  const headerValue = fc.string({ maxLength: 40 }).filter((s) => /^[\x20-\x7e]*$/.test(s));
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...routes),
      fc.jsonValue({ maxDepth: 4 }),
      fc.dictionary(
        fc.constantFrom('limit', 'cursor', 'status', 'from', 'to', 'accountId'),
        headerValue,
        { maxKeys: 3 },
      ),
      fc.record(
        {
          timestamp: headerValue,
          'idempotent-request-key': headerValue,
          'if-match': headerValue,
          'used-mechanism': headerValue,
        },
        { requiredKeys: [] },
      ),
      async ([method, url], body, query, headers) => {
        const res = await h.app.inject({
          method: method as 'GET',
          url,
          query,
          headers: {
            ...userHeaders('fuzzer'),
            ...headers,
            ...(method === 'GET' ? {} : { 'content-type': 'application/json' }),
          },
          ...(method === 'GET' ? {} : { payload: JSON.stringify(body) }),
        });
        assert.ok(res.statusCode < 500, `${method} ${url} → ${res.statusCode} ${res.body}`);
        if (res.statusCode >= 400)
          assert.match(String(res.headers['content-type']), /application\/problem\+json/);
      },
    ),
    { numRuns: 300 },
  );
});
