// Issue 26, "Done when": "From `npm start` a newcomer creates a payment through an MCP client, runs the
// engine to its execution date (documented command), and sees the status, the history and alice's balance
// change." This follows docs/payments-engine.md, "Walk-through: a payment that executes", step by step,
// against the real programs: `toolgate start` as a user runs it (both services, the printed client
// configuration: URL, subscription key and alice's token), the TypeScript SDK v2 client
// (@modelcontextprotocol/client) for every MCP call, and the documented command
// `toolgate payments engine run --until <ISO> --json` run as its own process on the same data folder.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { demoForFile, runCli } from '../helpers/process.js';

const demo = demoForFile('toolgate-walkthrough-');

async function connect(headers: Record<string, string>): Promise<Client> {
  const client = new Client(
    { name: 'toolgate-e2e-walkthrough', version: '1.0.0' },
    { versionNegotiation: { mode: 'auto' } },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(demo.printed.url), { requestInit: { headers } }),
  );
  return client;
}

interface ToolResult {
  readonly isError?: boolean;
  readonly content: unknown;
  readonly structuredContent?: unknown;
}

/** Structured content of a successful tool result (the test fails with the tool's text otherwise). */
function ok<T>(result: ToolResult, what: string): T {
  assert.notEqual(result.isError, true, `${what}: ${JSON.stringify(result.content)}`);
  assert.ok(result.structuredContent !== undefined, `${what}: no structuredContent`);
  return result.structuredContent as T;
}

interface Balance {
  readonly items: { accountId: string; bookedBalance: number; availableBalance: number }[];
}
interface Payment {
  readonly paymentInstructionReference: { identification: string; status: string };
}
interface History {
  readonly items: {
    kind: string;
    fromStatus: string | null;
    toStatus: string | null;
    isoStatus?: string | null;
    actor?: string;
  }[];
}
interface Transactions {
  readonly items: { id: string; creditDebitIndicator: string; amount: number; status: string }[];
}
interface EngineRun {
  readonly until: string;
  readonly steps: {
    paymentId: string;
    action: string;
    from: string;
    to: string;
    at: string;
    isoStatus?: string;
  }[];
  readonly failures: unknown[];
}

test('issue 26 done-when: the documented walk-through — createPayment over MCP (SCHEDULED), `toolgate payments engine run --until` a week on, then COMPLETED with ACSP/ACSC in the history and alice 100 EUR poorer', async () => {
  // The printed client configuration (what a newcomer pastes into an MCP client) …
  const client = await connect(demo.printed.headers);
  // … and the walk-through's own credentials, obtained as it says:
  // KEY=$(jq -r .subscriptionKey data/demo-secrets.json); TOKEN=$(npx toolgate token --sub alice)
  const secrets = JSON.parse(
    readFileSync(join(demo.scratch, 'data', 'demo-secrets.json'), 'utf8'),
  ) as { subscriptionKey: string };
  // (The demo here listens on a free port, not 8080: the token's issuer and audience follow the gateway's
  // address, so the command is told the port the gateway bound, as `npm start`'s fixed port tells it.)
  const minted = await runCli(['token', '--sub', 'alice'], {
    ...demo.env,
    TOOLGATE_GATEWAY_PORT: new URL(demo.printed.url).port,
  });
  assert.equal(minted.code, 0, minted.stderr);
  const documented = await connect({
    'Ocp-Apim-Subscription-Key': secrets.subscriptionKey,
    Authorization: `Bearer ${minted.stdout.trim()}`,
  });
  try {
    // "alice's account: EUR 5,000.00"
    const before = ok<Balance>(
      await client.callTool({ name: 'getMyAccountBalance', arguments: {} }),
      'getMyAccountBalance',
    );
    const account = before.items[0];
    assert.ok(account, 'alice has an account');
    assert.deepEqual([account.bookedBalance, account.availableBalance], [5000, 5000]);
    const iban = account.accountId;

    // "EUR 100 to another bank, to be executed tomorrow: SCHEDULED" (TOMORROW = tomorrow 09:00Z)
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const created = ok<Payment>(
      await client.callTool({
        name: 'createPayment',
        arguments: {
          body: {
            payerAccountReference: { paymentInstructionAccount: { accountId: iban } },
            payeeReference: { involvedParty: { partyName: 'Ada Lovelace' } },
            payeeAccountReference: {
              paymentInstructionAccount: { accountId: 'DE02120300000000202051' },
            },
            paymentInstruction: {
              amount: { instructedAmount: 100, instructedCurrency: 'EUR' },
              paymentDates: { requestedExecutionDate: `${tomorrow}T09:00:00Z` },
            },
          },
        },
      }),
      'createPayment',
    );
    const id = created.paymentInstructionReference.identification;
    assert.match(id, /^PO-/);
    // "getPayment shows it SCHEDULED"
    const scheduled = ok<Payment>(
      await client.callTool({ name: 'getPayment', arguments: { externalReferenceNo: id } }),
      'getPayment (before the engine)',
    );
    assert.equal(scheduled.paymentInstructionReference.status, 'SCHEDULED');

    // "Let a week pass for the engine": the documented command, its own process, the demo's data folder.
    const until = new Date(Date.now() + 7 * 86_400_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const run = await runCli(['payments', 'engine', 'run', '--until', until, '--json'], demo.env);
    assert.equal(run.code, 0, run.stderr);
    const report = JSON.parse(run.stdout) as EngineRun;
    assert.deepEqual(report.failures, []);
    const mine = report.steps.filter((s) => s.paymentId === id);
    assert.deepEqual(
      mine.map((s) => [s.action, s.from, s.to, s.isoStatus]),
      [
        ['EXECUTE', 'SCHEDULED', 'PENDING', 'ACSP'],
        ['SETTLE', 'PENDING', 'COMPLETED', 'ACSC'],
      ],
    );
    // Executed on or after the requested date, settled after the execution, both before --until.
    const [execute, settle] = mine;
    assert.ok(execute && settle);
    assert.ok(Date.parse(execute.at) >= Date.parse(`${tomorrow}T09:00:00Z`), execute.at);
    assert.ok(Date.parse(settle.at) > Date.parse(execute.at), settle.at);
    assert.ok(Date.parse(settle.at) <= Date.parse(until), settle.at);

    // From here on, the walk-through's own KEY and TOKEN: the same user, so the same payment and account.
    // "getPayment → COMPLETED"
    const done = ok<Payment>(
      await documented.callTool({ name: 'getPayment', arguments: { externalReferenceNo: id } }),
      'getPayment (after the engine)',
    );
    assert.equal(done.paymentInstructionReference.status, 'COMPLETED');

    // "getPaymentHistory → [STATUS_CHANGED PENDING COMPLETED ACSC] [STATUS_CHANGED SCHEDULED PENDING ACSP]
    //  [CREATED null SCHEDULED null]", newest first.
    const history = ok<History>(
      await documented.callTool({
        name: 'getPaymentHistory',
        arguments: { externalReferenceNo: id },
      }),
      'getPaymentHistory',
    );
    assert.deepEqual(
      history.items.map((h) => [h.kind, h.fromStatus ?? null, h.toStatus, h.isoStatus ?? null]),
      [
        ['STATUS_CHANGED', 'PENDING', 'COMPLETED', 'ACSC'],
        ['STATUS_CHANGED', 'SCHEDULED', 'PENDING', 'ACSP'],
        ['CREATED', null, 'SCHEDULED', null],
      ],
    );

    // "getMyAccountBalance → [4900,4900]"
    const after = ok<Balance>(
      await documented.callTool({ name: 'getMyAccountBalance', arguments: {} }),
      'getMyAccountBalance (after)',
    );
    const same = after.items.find((a) => a.accountId === iban);
    assert.ok(same);
    assert.deepEqual([same.bookedBalance, same.availableBalance], [4900, 4900]);

    // "getMyTransactionHistory → [PO-… DEBIT 100 BOOKED] [opening-balance CREDIT 5000 BOOKED]"
    const transactions = ok<Transactions>(
      await documented.callTool({ name: 'getMyTransactionHistory', arguments: {} }),
      'getMyTransactionHistory',
    );
    assert.deepEqual(
      transactions.items.map((t) => [t.id, t.creditDebitIndicator, t.amount, t.status]),
      [
        [id, 'DEBIT', 100, 'BOOKED'],
        ['opening-balance', 'CREDIT', 5000, 'BOOKED'],
      ],
    );
  } finally {
    await client.close();
    await documented.close();
  }
});

test('issue 26 walk-through, its last paragraph: paying another demo user (bob, by his IBAN) is a book transfer the engine executes, and bob’s balance grows by the amount', async () => {
  const port = new URL(demo.printed.url).port;
  const tokenFor = async (sub: string) => {
    const minted = await runCli(['token', '--sub', sub], {
      ...demo.env,
      TOOLGATE_GATEWAY_PORT: port,
    });
    assert.equal(minted.code, 0, minted.stderr);
    return minted.stdout.trim();
  };
  const key = demo.printed.headers['Ocp-Apim-Subscription-Key'] ?? '';
  const alice = await connect(demo.printed.headers);
  // "getMyAccountBalance with their token, npx toolgate token --sub bob"
  const bob = await connect({
    'Ocp-Apim-Subscription-Key': key,
    Authorization: `Bearer ${await tokenFor('bob')}`,
  });
  try {
    const balanceOf = async (client: Client) => {
      const first = ok<Balance>(
        await client.callTool({ name: 'getMyAccountBalance', arguments: {} }),
        'getMyAccountBalance',
      ).items[0];
      assert.ok(first);
      return first;
    };
    const aliceBefore = await balanceOf(alice);
    const bobBefore = await balanceOf(bob);
    assert.notEqual(aliceBefore.accountId, bobBefore.accountId);

    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const id = ok<Payment>(
      await alice.callTool({
        name: 'createPayment',
        arguments: {
          body: {
            payerAccountReference: {
              paymentInstructionAccount: { accountId: aliceBefore.accountId },
            },
            payeeReference: { involvedParty: { partyName: 'Bob' } },
            payeeAccountReference: {
              paymentInstructionAccount: { accountId: bobBefore.accountId },
            },
            paymentInstruction: {
              amount: { instructedAmount: 250, instructedCurrency: 'EUR' },
              paymentDates: { requestedExecutionDate: `${tomorrow}T09:00:00Z` },
            },
          },
        },
      }),
      'createPayment to bob',
    ).paymentInstructionReference.identification;

    const until = new Date(Date.now() + 7 * 86_400_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const run = await runCli(['payments', 'engine', 'run', '--until', until, '--json'], demo.env);
    assert.equal(run.code, 0, run.stderr);
    const steps = (JSON.parse(run.stdout) as EngineRun).steps.filter((s) => s.paymentId === id);
    // A book transfer settles the instant it executes: both transitions at one moment, 20:00 Frankfurt.
    assert.deepEqual(
      steps.map((s) => [s.action, s.to, s.isoStatus]),
      [
        ['EXECUTE', 'PENDING', 'ACSP'],
        ['SETTLE', 'COMPLETED', 'ACSC'],
      ],
    );
    assert.equal(steps[0]?.at, steps[1]?.at);
    const frankfurt = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Europe/Berlin',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).format(new Date(steps[0]?.at ?? ''));
    assert.equal(frankfurt, '20:00');

    const aliceAfter = await balanceOf(alice);
    const bobAfter = await balanceOf(bob);
    assert.equal(aliceAfter.bookedBalance, aliceBefore.bookedBalance - 250);
    assert.equal(bobAfter.bookedBalance, bobBefore.bookedBalance + 250);
    assert.equal(bobAfter.availableBalance, bobBefore.availableBalance + 250);
    const bobsEntries = ok<Transactions>(
      await bob.callTool({ name: 'getMyTransactionHistory', arguments: {} }),
      'getMyTransactionHistory (bob)',
    ).items;
    assert.deepEqual(
      bobsEntries.map((t) => [t.id, t.creditDebitIndicator, t.amount, t.status])[0],
      [id, 'CREDIT', 250, 'BOOKED'],
    );
  } finally {
    await alice.close();
    await bob.close();
  }
});
