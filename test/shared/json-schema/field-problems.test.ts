// The one translation of Ajv's errors into field problems (src/shared/json-schema/field-problems.ts), used by
// the admin API and the payment service: pointers with the named property, stable codes, one problem per
// field and kind, a union shown as its summary or as its branches, combinators that say nothing of their own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createAjv } from '../../../src/shared/json-schema/ajv.js';
import { fieldProblems } from '../../../src/shared/json-schema/field-problems.js';

const ajv = createAjv({ dialect: '2020-12' });

function errorsOf(schema: object, value: unknown) {
  const check = ajv.compile(schema);
  assert.equal(check(value), false);
  return check.errors ?? [];
}

test('a missing, an unknown and a mistyped field: pointer, dotted field, code and message', () => {
  const schema = {
    type: 'object',
    properties: { owner: { type: 'object', properties: { email: { type: 'string' } } } },
    required: ['owner', 'name'],
    additionalProperties: false,
  };
  assert.deepEqual(fieldProblems(errorsOf(schema, { owner: { email: 5 }, extra: 1 })), [
    { field: 'name', pointer: '/name', code: 'REQUIRED', message: 'is required' },
    { field: 'extra', pointer: '/extra', code: 'UNKNOWN_FIELD', message: 'is not a known field' },
    {
      field: 'owner.email',
      pointer: '/owner/email',
      code: 'INVALID_TYPE',
      message: 'must be string',
    },
  ]);
});

test('base places the problems inside what the client sent; "/" and "~" are escaped in pointers', () => {
  const schema = { type: 'object', properties: { 'a/b~c': { type: 'integer' } } };
  const [problem] = fieldProblems(errorsOf(schema, { 'a/b~c': 'x' }), { base: '/query' });
  assert.equal(problem?.pointer, '/query/a~1b~0c');
  assert.equal(problem?.field, 'query.a/b~c');
});

const union = {
  type: 'object',
  properties: {
    tools: { oneOf: [{ const: 'all' }, { type: 'array', items: { type: 'string' } }] },
  },
};

test('unions: the summary by default, the branches on request', () => {
  const value = { tools: 5 };
  assert.deepEqual(fieldProblems(errorsOf(union, value)), [
    {
      field: 'tools',
      pointer: '/tools',
      code: 'INVALID_VALUE',
      message: 'must be "all" or an array',
    },
  ]);
  const branches = fieldProblems(errorsOf(union, value), { unions: 'branches' });
  assert.deepEqual(
    branches.map((p) => [p.pointer, p.code]),
    [
      ['/tools', 'INVALID_ENUM'],
      ['/tools', 'INVALID_TYPE'],
    ],
  );
});

test('if/then and allOf report only the failing part, never a problem of their own', () => {
  const schema = {
    type: 'object',
    allOf: [{ required: ['kind'] }],
    if: { properties: { kind: { const: 'card' } }, required: ['kind'] },
    then: { required: ['number'] },
  };
  assert.deepEqual(
    fieldProblems(errorsOf(schema, { kind: 'card' })).map((p) => [p.pointer, p.code]),
    [['/number', 'REQUIRED']],
  );
});
