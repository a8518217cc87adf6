// Governed actions with real clients against `toolgate start` and its demo rules (issue 25, "Tests"):
// payments above 1,000 EUR need the user's own confirmation, above 10,000 EUR a payments-approver's.
//   - the TypeScript SDK v2 client in its 2026-07-28 mode completes the confirm round trip: the gateway
//     answers input_required with a URL-mode elicitation, the client's elicitation handler is the test
//     acting as alice in a real browser (playwright-core + chromium) on the approval page, the client
//     retries with the requestState and the payment is made;
//   - the Python `mcp` client in its default (2026-07-28) mode does the same, its elicitation callback
//     handing the URL to the test, which approves in the browser;
//   - the MCP Inspector CLI and the TypeScript SDK 1.x client get the fallback result and succeeds on retry after approval;
//   - four-eyes: alice cannot approve her own 12,000 EUR payment, bob (payments-approver) can (the payment
//     service then refuses it for want of funds, and the budget reservation is released);
//   - the audit log tells each call's story (?call=).
import { after, before, describe, test } from 'node:test';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import assert from 'node:assert/strict';
import { chromium, type BrowserContext } from 'playwright-core';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as Client1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as Transport1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  BROWSER_ACTION_TIMEOUT_MS,
  chromiumArgs,
  ensureChromium,
  freshProfile,
} from '../helpers/chromium.js';
import { demoForFile } from '../helpers/process.js';
import { rpc } from '../helpers/mcp-http.js';
import { pythonWithMcp } from '../helpers/python.js';
import { inspector } from '../helpers/inspector.js';
import { writeFileSync } from 'node:fs';

const availability = ensureChromium();
const skip =
  'skip' in availability ? `governed consent suite skipped: ${availability.skip}` : false;
if (skip) console.log(`# ${skip}`);

const demo = demoForFile('toolgate-governed-');
// Every demo account opens with 5,000 EUR: the payments below that are made add up to 4,710 EUR, no two
// alike (the payment service refuses a possible duplicate).

interface Approval {
  readonly id: string;
  readonly url: string;
  readonly expiresAt: string;
  readonly status: string;
}

/** A browser of its own per person (its own portal session). */
async function browserFor(): Promise<BrowserContext> {
  const context = await chromium.launchPersistentContext(freshProfile(), {
    executablePath: (availability as { path: string }).path,
    args: chromiumArgs(),
    headless: true,
  });
  context.setDefaultTimeout(BROWSER_ACTION_TIMEOUT_MS);
  return context;
}

/**
 * Opens the approval page as `user`, signing in through the development identity provider on the way,
 * and returns the page (on the approval, signed in).
 */
async function openApproval(context: BrowserContext, url: string, user: 'alice' | 'bob') {
  const page = context.pages()[0] ?? (await context.newPage());
  await page.goto(url);
  if (/\/portal\/sign-in/.test(page.url())) {
    await page.getByRole('link', { name: 'Sign in with OpenID Connect' }).click();
    await page.getByRole('button', { name: new RegExp(user, 'i') }).click();
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL(/\/portal\/approvals\//);
  }
  return page;
}

/** The payer account of alice (her first account), asked of the accounts API through the gateway. */
async function alicesAccount(): Promise<string> {
  const balance = await rpc(demo.printed.url, demo.printed.headers, 'tools/call', {
    name: 'getMyAccountBalance',
    arguments: {},
  });
  return balance.body.result.structuredContent.items[0].accountId as string;
}

function payment(payer: string, amount: number, payee = 'Ada Lovelace') {
  return {
    body: {
      payerAccountReference: { paymentInstructionAccount: { accountId: payer } },
      payeeReference: { involvedParty: { partyName: payee } },
      payeeAccountReference: { paymentInstructionAccount: { accountId: 'GB29NWBK60161331926819' } },
      paymentInstruction: { amount: { instructedAmount: amount, instructedCurrency: 'EUR' } },
    },
  };
}

/** The audit entries of one governed call, through the admin API (`?call=`). */
async function story(
  callId: string,
): Promise<{ action: string; after: Record<string, unknown> }[]> {
  const summary = demo.summary as { adminApi: string; adminToken: string };
  const response = await fetch(`${summary.adminApi}/audit?call=${callId}`, {
    headers: { authorization: `Bearer ${summary.adminToken}` },
  });
  assert.equal(response.status, 200);
  return (
    (await response.json()) as { entries: { action: string; after: Record<string, unknown> }[] }
  ).entries;
}

const reference = (structured: unknown) =>
  (structured as { paymentInstructionReference: { identification: string } })
    .paymentInstructionReference.identification;

describe('issue 25: consent over MCP with real clients', { skip }, () => {
  let alice: BrowserContext;
  let bob: BrowserContext;
  let payer = '';

  before(async () => {
    alice = await browserFor();
    bob = await browserFor();
    payer = await alicesAccount();
  });
  after(async () => {
    await alice?.close();
    await bob?.close();
  });

  test('TypeScript SDK v2 (2026-07-28): input_required → alice confirms on the approval page in a browser → the retry with requestState makes the payment', async () => {
    const client = new Client(
      { name: 'toolgate-e2e-consent', version: '1.0.0' },
      { versionNegotiation: { mode: 'auto' }, capabilities: { elicitation: { url: {} } } },
    );
    const elicited: { mode: string; url: string; message: string }[] = [];
    client.setRequestHandler('elicitation/create', async (request) => {
      const params = request.params as { mode: string; url: string; message: string };
      elicited.push(params);
      // The user follows the link: signs in as alice and confirms this exact payment.
      const page = await openApproval(alice, params.url, 'alice');
      await page.getByText('€1,500.00').waitFor();
      await page.getByRole('button', { name: 'Confirm' }).click();
      await page.waitForURL(/done=approved/);
      return { action: 'accept' };
    });
    const transport = new StreamableHTTPClientTransport(new URL(demo.printed.url), {
      requestInit: { headers: demo.printed.headers },
    });
    await client.connect(transport);
    try {
      assert.equal(client.getNegotiatedProtocolVersion(), '2026-07-28');
      const result = await client.callTool({
        name: 'createPayment',
        arguments: payment(payer, 1500),
      });
      assert.notEqual(result.isError, true, JSON.stringify(result.content));
      assert.match(reference(result.structuredContent), /^PO-/);
      assert.equal(elicited.length, 1, 'one round trip');
      assert.equal(elicited[0]?.mode, 'url');
      assert.match(elicited[0]?.url ?? '', /\/portal\/approvals\/apv_/);
      assert.match(elicited[0]?.message ?? '', /Payments above 1,000 EUR/);

      // The story of the call that asked: decision, request, alice's confirmation, the redeemed receipt
      // and the backend's answer with the payment's reference.
      const approvalId = /approvals\/(apv_[A-Za-z0-9_-]+)/.exec(elicited[0]?.url ?? '')?.[1];
      const page = alice.pages()[0];
      assert.ok(page && approvalId);
      const callId = /call ([0-9a-f-]{36})/.exec(await page.locator('main').innerText())?.[1];
      assert.ok(callId, 'the approval page names the call');
      const entries = await story(callId);
      const actions = entries.map((e) => e.action);
      assert.deepEqual(actions, [
        'governance.decision',
        'governance.consent.requested',
        'approval.approve',
        'governance.consent.redeemed',
        'governance.budget.reserved',
        'governance.backend.answer',
      ]);
      assert.equal(entries[2]?.after.decidedBy, 'alice');
      assert.equal(entries[5]?.after.status, 201);
      assert.equal(entries[5]?.after.reference, reference(result.structuredContent));
    } finally {
      await client.close();
    }
  });

  test('Python mcp SDK (2026-07-28): input_required → alice confirms in the browser → the SDK retries with the requestState and the payment is made', async (t) => {
    const found = pythonWithMcp();
    if ('skip' in found) {
      t.skip(found.skip);
      return;
    }
    const script = join(process.cwd(), 'test', 'e2e', 'python', 'governed_client.py');
    const child = spawn(found.python, [
      script,
      demo.printed.url,
      JSON.stringify(demo.printed.headers),
      JSON.stringify(payment(payer, 1050, 'Alan Turing')),
    ]);
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const elicited: string[] = [];
    let final: { protocolVersion: string; isError: boolean; structured: unknown } | undefined;
    for await (const line of createInterface({ input: child.stdout })) {
      const message = JSON.parse(line) as { elicit?: { url: string } } & typeof final;
      if (message?.elicit !== undefined) {
        elicited.push(message.elicit.url);
        const page = await openApproval(alice, message.elicit.url, 'alice');
        await page.getByRole('button', { name: 'Confirm' }).click();
        await page.waitForURL(/done=approved/);
        child.stdin.write('approved\n');
      } else final = message;
    }
    const code = await new Promise<number | null>((resolve) =>
      child.exitCode !== null ? resolve(child.exitCode) : child.on('exit', resolve),
    );
    assert.equal(code, 0, `the Python client failed:\n${stderr.slice(-3000)}`);
    assert.ok(final, 'the client printed its result');
    assert.equal(final.protocolVersion, '2026-07-28');
    assert.equal(final.isError, false, JSON.stringify(final));
    assert.match(reference(final.structured), /^PO-/);
    assert.equal(elicited.length, 1, 'one round trip');
    assert.match(elicited[0] ?? '', /\/portal\/approvals\/apv_/);
  });

  test('TypeScript SDK 1.x: the fallback result names the approval page; after approval the same call succeeds once', async () => {
    const client = new Client1({ name: 'toolgate-e2e-consent-v1', version: '1.0.0' });
    await client.connect(
      new Transport1(new URL(demo.printed.url), { requestInit: { headers: demo.printed.headers } }),
    );
    try {
      const args = payment(payer, 1100, 'Grace Hopper');
      const first = await client.callTool({ name: 'createPayment', arguments: args });
      assert.equal(first.isError, true);
      const approval = (first.structuredContent as { approval: Approval }).approval;
      const text = (first.content as { text: string }[])[0]?.text ?? '';
      assert.match(text, new RegExp(`confirm it at ${approval.url.replace(/[.?]/g, '\\$&')}`));
      assert.match(text, /retry exactly the same call/);
      assert.deepEqual((first._meta as Record<string, unknown>)['io.toolgate/approval'], approval);

      const page = await openApproval(alice, approval.url, 'alice');
      await page.getByRole('button', { name: 'Confirm' }).click();
      await page.waitForURL(/done=approved/);

      const retried = await client.callTool({ name: 'createPayment', arguments: args });
      assert.notEqual(retried.isError, true, JSON.stringify(retried.content));
      assert.match(reference(retried.structuredContent), /^PO-/);

      // Single use: the same call again needs a new approval.
      const again = await client.callTool({ name: 'createPayment', arguments: args });
      assert.equal(again.isError, true);
      assert.notEqual((again.structuredContent as { approval: Approval }).approval.id, approval.id);
    } finally {
      await client.close();
    }
  });

  test('MCP Inspector CLI: the fallback result names the approval page; after approval the same call succeeds', async () => {
    const configFile = join(demo.scratch, 'mcp.json');
    writeFileSync(configFile, JSON.stringify(demo.summary.clientConfig, null, 2));
    const args = [
      '--method',
      'tools/call',
      '--tool-name',
      'createPayment',
      '--tool-args-json',
      JSON.stringify(payment(payer, 1060, 'Barbara Liskov')),
    ];
    const first = await inspector(configFile, args, demo.scratch);
    // The Inspector prints the result and exits 5 for a tool result with isError (its "tool_is_error").
    assert.equal(first.code, 5, `tools/call: ${first.stderr.slice(-2000)}`);
    assert.match(first.stderr, /tool_is_error/);
    const asked = JSON.parse(first.stdout) as {
      isError?: boolean;
      structuredContent: { approval: Approval };
    };
    assert.equal(asked.isError, true, first.stdout);
    const approval = asked.structuredContent.approval;
    assert.match(approval.url, /\/portal\/approvals\/apv_/);

    const page = await openApproval(alice, approval.url, 'alice');
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.waitForURL(/done=approved/);

    const retried = await inspector(configFile, args, demo.scratch);
    assert.equal(retried.code, 0, `retry failed: ${retried.stdout.slice(0, 3000)}`);
    const done = JSON.parse(retried.stdout) as { isError?: boolean; structuredContent: unknown };
    assert.notEqual(done.isError, true, retried.stdout);
    assert.match(reference(done.structuredContent), /^PO-/);
  });

  test("four-eyes: alice cannot approve her own 12,000 EUR payment; bob with the role payments-approver can; the backend's refusal releases the budget", async () => {
    const args = payment(payer, 12000, 'Katherine Johnson');
    const call = () =>
      rpc(demo.printed.url, demo.printed.headers, 'tools/call', {
        name: 'createPayment',
        arguments: args,
      });
    const first = await call();
    assert.equal(first.body.result.isError, true);
    const approval = first.body.result.structuredContent.approval as Approval;
    assert.match(
      first.body.result.content[0].text,
      /role payments-approver \(not you\) must approve it/,
    );

    const own = await openApproval(alice, approval.url, 'alice');
    assert.equal(await own.getByRole('button', { name: 'Approve' }).count(), 0);
    const refused = await call();
    assert.equal(refused.body.result.isError, true, 'still pending');

    const page = await openApproval(bob, approval.url, 'bob');
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.waitForURL(/done=approved/);
    const callId = /call ([0-9a-f-]{36})/.exec(await page.locator('main').innerText())?.[1];
    assert.ok(callId);
    // Approved, the call reaches the payment service, which refuses it on its own terms: every demo
    // account opens with 5,000 EUR. The budget reservation is given back.
    const done = await call();
    assert.equal(done.body.result.isError, true);
    assert.match(done.body.result.content[0].text, /HTTP 422 .*INSUFFICIENT_FUNDS/);
    const entries = await story(callId);
    const approved = entries.find((e) => e.action === 'approval.approve');
    assert.equal(approved?.after.decidedBy, 'bob');
    const answer = entries.find((e) => e.action === 'governance.backend.answer');
    assert.equal(answer?.after.status, 422);
    assert.equal(answer?.after.released, true);
  });
});
