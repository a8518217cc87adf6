// The one problem+json renderer (src/shared/http/problem.ts): type from the code, title RFC 9110's reason
// phrase, field problems with the payment rules' ISO 20022 reason when they carry one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { problem } from '../../../src/shared/http/problem.js';

test('titles are RFC 9110 reason phrases, including the two Node still spells the old way', () => {
  assert.equal(problem(422, 'BUSINESS_RULE_VIOLATION', 'x').title, 'Unprocessable Content');
  assert.equal(problem(413, 'PAYLOAD_TOO_LARGE', 'x').title, 'Content Too Large');
  assert.equal(problem(404, 'PAYMENT_NOT_FOUND', 'x').title, 'Not Found');
});

test('a problem: type from the code, errors only when there are some, each field in one order', () => {
  assert.deepEqual(problem(404, 'BANK_NOT_FOUND', 'no such bank'), {
    type: 'https://toolgate.dev/errors#bank_not_found',
    title: 'Not Found',
    status: 404,
    code: 'BANK_NOT_FOUND',
    detail: 'no such bank',
  });
  const rendered = problem(422, 'BUSINESS_RULE_VIOLATION', 'one rule', [
    { message: 'not a valid IBAN', reason: 'AC01', code: 'IBAN_INVALID', pointer: '/a' },
    { field: 'owner.email', pointer: '/owner/email', code: 'REQUIRED', message: 'is required' },
  ]);
  assert.deepEqual(
    rendered.errors?.map((e) => Object.keys(e)),
    [
      ['pointer', 'code', 'reason', 'message'],
      ['field', 'pointer', 'code', 'message'],
    ],
  );
});
