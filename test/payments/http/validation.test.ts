import test from 'node:test';
import assert from 'node:assert/strict';
import { createOperationValidator } from '../../../src/payments/http/validation.js';
import { readOpenApiDocument } from '../../../src/payments/http/documents.js';

const validator = createOperationValidator(readOpenApiDocument('payment-order'));

test('reports every body, header and parameter problem at once with pointers', () => {
  const errors = validator.validate('createPayment', {
    body: {
      paymentInstruction: {
        amount: { instructedAmount: -1, instructedCurrency: 'eur' },
        schedule: { endDate: '2027-01-01T00:00:00Z', noOfRepetition: 2, skipInterval: 3 },
      },
      surprise: true,
    },
    headers: { timestamp: 'yesterday' },
  });
  const got = errors.map((e) => `${e.pointer} ${e.code}`).sort();
  assert.deepEqual(got, [
    '/header/Timestamp INVALID_FORMAT',
    '/payeeAccountReference REQUIRED',
    '/payerAccountReference REQUIRED',
    '/paymentInstruction/amount/instructedAmount OUT_OF_RANGE',
    '/paymentInstruction/amount/instructedCurrency INVALID_FORMAT',
    '/paymentInstruction/schedule CONFLICTING_FIELDS',
    '/paymentInstruction/schedule/skipInterval INVALID_ENUM',
    '/surprise UNKNOWN_FIELD',
  ]);
});

test('coerces and checks query parameters, checks path parameters', () => {
  const query: Record<string, unknown> = { limit: '5' };
  assert.deepEqual(validator.validate('listPayments', { query }), []);
  assert.equal(query['limit'], 5);
  const bad = validator.validate('listPayments', { query: { limit: '0', status: 'NOPE' } });
  assert.deepEqual(bad.map((e) => e.pointer).sort(), ['/query/limit', '/query/status']);
  const path = validator.validate('getPayment', { params: { externalReferenceNo: 'a b' } });
  assert.deepEqual(
    path.map((e) => e.pointer),
    ['/path/externalReferenceNo'],
  );
});

test('a required body that is missing is reported against the whole body', () => {
  const errors = validator.validate('validatePayment', {});
  assert.deepEqual(errors, [
    { pointer: '', code: 'REQUIRED', message: 'a JSON request body is required' },
  ]);
  assert.equal(validator.has('validatePayment'), true);
  assert.equal(validator.has('noSuchOperation'), false);
});
