// Payer ownership end to end: `toolgate start` as a newcomer runs it, then tools/call through the gateway's
// MCP endpoint with development tokens. Every user pays only from an account the payment service knows as
// theirs: a subject that never touched the accounts API cannot debit alice's IBAN (BE01), and alice's own
// first call of all — createPayment — pays from her own demo account.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { demoIbanFor } from '../../src/payments/domain/demo-account.js';
import { rpc, type RpcResponse } from '../helpers/mcp-http.js';
import { demoForFile, runCli } from '../helpers/process.js';

const demo = demoForFile('toolgate-payer-');

const ALICE_IBAN = demoIbanFor('alice');
const PAYER = '/payerAccountReference/paymentInstructionAccount/accountId';

/** A EUR credit transfer from `payer` to a UK account. */
const payment = (payer: string, instructedAmount: number) => ({
  body: {
    payerAccountReference: { paymentInstructionAccount: { accountId: payer } },
    payeeReference: { involvedParty: { partyName: 'Ada Lovelace' } },
    payeeAccountReference: { paymentInstructionAccount: { accountId: 'GB29NWBK60161331926819' } },
    paymentInstruction: { amount: { instructedAmount, instructedCurrency: 'EUR' } },
  },
});

/** A development token for `sub`, as `npx toolgate token --sub NAME` mints it for the running demo. */
async function tokenFor(sub: string): Promise<string> {
  const port = new URL(demo.printed.url).port;
  const minted = await runCli(['token', '--sub', sub], {
    ...demo.env,
    TOOLGATE_GATEWAY_PORT: port,
  });
  assert.equal(minted.code, 0, minted.stderr);
  return minted.stdout.trim();
}

/** The printed client headers with another user's token. */
async function headersOf(sub: string): Promise<Record<string, string>> {
  return { ...demo.printed.headers, Authorization: `Bearer ${await tokenFor(sub)}` };
}

const call = (headers: Record<string, string>, name: string, args: Record<string, unknown>) =>
  rpc(demo.printed.url, headers, 'tools/call', { name, arguments: args });

/** The problem the payment service answered, from the tool result's text. */
function problemOf(result: RpcResponse): { code: string; errors: Record<string, string>[] } {
  assert.equal(result.status, 200);
  assert.equal(result.body.result.isError, true, JSON.stringify(result.body));
  const text = String(result.body.result.content[0].text);
  const details = /Problem details: (\{.*\})$/s.exec(text)?.[1];
  assert.ok(details, text);
  return JSON.parse(details) as { code: string; errors: Record<string, string>[] };
}

test("alice's first call, createPayment, pays from her own demo account; another IBAN is refused naming hers", async () => {
  const alice = demo.printed.headers;
  const wrong = problemOf(
    await call(alice, 'createPayment', payment('DE89370400440532013000', 10)),
  );
  assert.equal(wrong.code, 'BUSINESS_RULE_VIOLATION');
  assert.deepEqual(
    wrong.errors.map((e) => [e['pointer'], e['code'], e['reason']]),
    [[PAYER, 'PAYER_ACCOUNT_NOT_OWNED', 'BE01']],
  );
  assert.match(wrong.errors[0]?.['message'] ?? '', new RegExp(`pay from ${ALICE_IBAN}$`));

  const created = await call(alice, 'createPayment', payment(ALICE_IBAN, 12.5));
  assert.equal(created.body.result.isError, undefined, JSON.stringify(created.body));
  assert.equal(
    created.body.result.structuredContent.payerAccountReference.paymentInstructionAccount.accountId,
    ALICE_IBAN,
  );
});

test("a subject that never touched the accounts API cannot debit alice's IBAN (BE01), nor validate it", async () => {
  const newcomer = await headersOf('newcomer');
  const refused = problemOf(await call(newcomer, 'createPayment', payment(ALICE_IBAN, 10)));
  assert.equal(refused.code, 'BUSINESS_RULE_VIOLATION');
  assert.deepEqual(
    refused.errors.map((e) => [e['pointer'], e['code'], e['reason']]),
    [[PAYER, 'PAYER_ACCOUNT_NOT_OWNED', 'BE01']],
  );
  assert.match(
    refused.errors[0]?.['message'] ?? '',
    new RegExp(`pay from ${demoIbanFor('newcomer')}$`),
  );

  const validated = await call(newcomer, 'validatePayment', payment(ALICE_IBAN, 10));
  const reference = validated.body.result.structuredContent.paymentInstructionReference;
  assert.deepEqual([reference.status, reference.reason], ['FAILED', 'BE01']);

  const listed = await call(newcomer, 'listPayments', {});
  assert.deepEqual(listed.body.result.structuredContent.items, [], 'nothing was stored');

  // The newcomer's own account, opened for them, is theirs to pay from.
  const own = await call(newcomer, 'createPayment', payment(demoIbanFor('newcomer'), 10));
  assert.equal(own.body.result.isError, undefined, JSON.stringify(own.body));
});
