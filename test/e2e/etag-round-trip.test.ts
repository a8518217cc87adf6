// Issue 27, trap 4 ("The ETag is invisible"): real clients against `toolgate start` as a user runs it
// read the payment's ETag from getPayment's tool result and send it back as If-Match to updatePayment:
//   - the TypeScript SDK v2 client (@modelcontextprotocol/client, versionNegotiation 'auto', 2026-07-28):
//     create → get → the ETag from the result's text line (what a model reads) and from
//     `_meta["io.toolgate/http"]` → update with that If-Match succeeds and answers the next ETag → an
//     update with the stale ETag is the payment service's 412 as a tool error naming the current ETag;
//   - the TypeScript SDK 1.x client (2025-11-25): the same ETag in `_meta` and in the text.
// Small amounts (the demo asks for confirmation above 1,000 EUR) and a payee of its own per payment (the
// payment service refuses a possible duplicate).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as Client1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as Transport1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { demoForFile } from '../helpers/process.js';

const demo = demoForFile('toolgate-etag-');

interface ToolResult {
  readonly content: unknown;
  readonly structuredContent?: unknown;
  readonly isError?: boolean;
  readonly _meta?: Record<string, unknown>;
}

/** All text blocks of a result, one string: what a client that drops `_meta` shows the model. */
function textOf(result: ToolResult): string {
  return (result.content as { type: string; text?: string }[])
    .filter((block) => block.type === 'text')
    .map((block) => block.text ?? '')
    .join('\n');
}

/** The ETag as a model finds it in the text: the `ETag: <tag>` line. */
function etagInText(result: ToolResult): string {
  const found = /^ETag: (\S+)/m.exec(textOf(result));
  assert.ok(found?.[1], `no ETag line in: ${textOf(result).slice(-300)}`);
  return found[1];
}

function etagInMeta(result: ToolResult): unknown {
  return (result._meta?.['io.toolgate/http'] as { etag?: unknown } | undefined)?.etag;
}

function payment(payer: string, amount: number, payee: string) {
  return {
    body: {
      payerAccountReference: { paymentInstructionAccount: { accountId: payer } },
      payeeReference: { involvedParty: { partyName: payee } },
      payeeAccountReference: { paymentInstructionAccount: { accountId: 'GB29NWBK60161331926819' } },
      paymentInstruction: { amount: { instructedAmount: amount, instructedCurrency: 'EUR' } },
    },
  };
}

interface PaymentRecord {
  paymentInstructionReference: { identification: string };
  paymentInstruction: { amount: { instructedAmount: number } };
}

type Call = (name: string, args: Record<string, unknown>) => Promise<ToolResult>;

/** alice's first account and a fresh payment of `amount` EUR to `payee`; returns its reference. */
async function newPayment(call: Call, amount: number, payee: string): Promise<string> {
  const balance = await call('getMyAccountBalance', {});
  assert.notEqual(balance.isError, true, textOf(balance));
  const payer = (balance.structuredContent as { items: { accountId: string }[] }).items[0]
    ?.accountId;
  assert.ok(payer);
  const created = await call('createPayment', payment(payer, amount, payee));
  assert.notEqual(created.isError, true, textOf(created));
  return (created.structuredContent as PaymentRecord).paymentInstructionReference.identification;
}

test('issue 27 trap 4, TypeScript SDK v2 (2026-07-28): getPayment → its ETag → updatePayment with If-Match succeeds; a stale ETag gets the backend 412 as a tool error', async () => {
  const client = new Client(
    { name: 'toolgate-e2e-etag', version: '1.0.0' },
    { versionNegotiation: { mode: 'auto' } },
  );
  const transport = new StreamableHTTPClientTransport(new URL(demo.printed.url), {
    requestInit: { headers: demo.printed.headers },
  });
  await client.connect(transport);
  try {
    assert.equal(client.getNegotiatedProtocolVersion(), '2026-07-28');
    const call: Call = async (name, args) =>
      (await client.callTool({ name, arguments: args })) as ToolResult;
    const id = await newPayment(call, 12.5, 'Etag Round Trip One');

    const read = await call('getPayment', { externalReferenceNo: id });
    assert.notEqual(read.isError, true, textOf(read));
    const etag = etagInText(read);
    assert.equal(etagInMeta(read), etag, 'the same ETag in _meta["io.toolgate/http"]');
    // The first text block is still the record's JSON, the same as structuredContent.
    const first = (read.content as { text: string }[])[0]?.text ?? '';
    assert.deepEqual(JSON.parse(first), read.structuredContent);

    // The record from getPayment with a change, sent back with the ETag as If-Match.
    const record = read.structuredContent as PaymentRecord;
    record.paymentInstruction.amount.instructedAmount = 13.75;
    const updated = await call('updatePayment', {
      externalReferenceNo: id,
      'If-Match': etag,
      body: record,
    });
    assert.notEqual(updated.isError, true, textOf(updated));
    assert.equal(
      (updated.structuredContent as PaymentRecord).paymentInstruction.amount.instructedAmount,
      13.75,
    );
    const next = etagInText(updated);
    assert.notEqual(next, etag, 'the update answers the new version');
    assert.equal(etagInMeta(updated), next);
    assert.equal(etagInText(await call('getPayment', { externalReferenceNo: id })), next);

    // The ETag read before the update is stale now: the payment service refuses with 412, nothing changes.
    record.paymentInstruction.amount.instructedAmount = 14.25;
    const stale = await call('updatePayment', {
      externalReferenceNo: id,
      'If-Match': etag,
      body: record,
    });
    assert.equal(stale.isError, true);
    assert.match(textOf(stale), /HTTP 412 Precondition Failed/);
    assert.ok(textOf(stale).includes(JSON.stringify(next).slice(1, -1)), textOf(stale));
    assert.equal(etagInMeta(stale), undefined);
    const after = await call('getPayment', { externalReferenceNo: id });
    assert.equal(
      (after.structuredContent as PaymentRecord).paymentInstruction.amount.instructedAmount,
      13.75,
    );
  } finally {
    await client.close();
  }
});

test('issue 27 trap 4, TypeScript SDK 1.x (2025-11-25): getPayment carries the ETag in _meta and in the text', async () => {
  const client = new Client1({ name: 'toolgate-e2e-etag-v1', version: '1.0.0' });
  const transport = new Transport1(new URL(demo.printed.url), {
    requestInit: { headers: demo.printed.headers },
  });
  await client.connect(transport);
  try {
    assert.equal(transport.protocolVersion, '2025-11-25');
    const call: Call = async (name, args) =>
      (await client.callTool({ name, arguments: args })) as ToolResult;
    const id = await newPayment(call, 7.2, 'Etag Round Trip Two');
    const read = await call('getPayment', { externalReferenceNo: id });
    assert.notEqual(read.isError, true, textOf(read));
    assert.match(etagInText(read), /^"v\d+"$/);
    assert.equal(etagInMeta(read), etagInText(read));
  } finally {
    await client.close();
  }
});
