// The OpenAPI document and the live responses agree: the 409 and 412 problems (with their paymentStatus /
// currentETag extensions), the 422 rule problems (errors with reason) and validatePayment's record with
// statusReasons all validate against the document's own schemas (Problem additionalProperties: false).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { readOpenApiDocument } from '../../src/payments/http/documents.js';
import {
  forEachStore,
  openHarness,
  send,
  json,
  OPERATOR_TOKEN,
  type Harness,
  holdSampleAccounts,
} from './harness.js';
import { NOW, sepaCreditTransfer } from './rules/fixtures.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const ID = 'urn:toolgate:test:payment-order';

function rewrite(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewrite);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [
      k,
      k === '$ref' && typeof v === 'string'
        ? v.replace('#/components/schemas/', `${ID}#/$defs/`)
        : rewrite(v),
    ]),
  );
}

const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
const components = readOpenApiDocument('payment-order')['components'] as Record<string, unknown>;
ajv.addSchema({ $id: ID, $defs: rewrite(components['schemas']) as Record<string, unknown> });
function conforms(schema: string, body: unknown): void {
  const validate = ajv.getSchema(`${ID}#/$defs/${schema}`);
  assert.ok(validate, schema);
  assert.equal(validate(body), true, `${ajv.errorsText(validate.errors)}: ${JSON.stringify(body)}`);
}

forEachStore('responses agree with the document', (kind) => {
  let h: Harness;
  before(async () => {
    h = await openHarness(kind, { now: () => NOW });
    await holdSampleAccounts(h.db, 'alice');
  });
  after(async () => h.close());

  test('409 INVALID_STATE with paymentStatus and 412 PRECONDITION_FAILED with currentETag are Problems', async () => {
    const created = json(await send(h, 'alice', 'POST', 'payments', sepaCreditTransfer()));
    const id = String(
      (created['paymentInstructionReference'] as Record<string, unknown>)['identification'],
    );
    const stale = await send(h, 'alice', 'PUT', `payments/${id}`, sepaCreditTransfer(), {
      'if-match': '"v9"',
    });
    assert.equal(stale.statusCode, 412);
    assert.equal(json(stale)['currentETag'], '"v1"');
    conforms('Problem', json(stale));
    const moved = await send(
      h,
      undefined,
      'POST',
      `/internal/payments/${id}/status`,
      { status: 'PENDING' },
      {
        authorization: `Bearer ${OPERATOR_TOKEN}`,
      },
    );
    assert.equal(moved.statusCode, 200);
    const conflict = await send(h, 'alice', 'PUT', `payments/${id}`, sepaCreditTransfer());
    assert.equal(conflict.statusCode, 409);
    assert.equal(json(conflict)['paymentStatus'], 'PENDING');
    conforms('Problem', json(conflict));
  });

  test('422 rule problems (errors with reason) and validatePayment with statusReasons conform', async () => {
    const broken = sepaCreditTransfer({ payeeIban: 'DE89370400440532013001', mechanism: 'ACH' });
    const refused = await send(h, 'alice', 'POST', 'payments', broken);
    assert.equal(refused.statusCode, 422);
    conforms('Problem', json(refused));
    const validated = await send(h, undefined, 'POST', 'payments/validate', broken);
    assert.equal(validated.statusCode, 201);
    conforms('PaymentRecord', json(validated));
  });
});
