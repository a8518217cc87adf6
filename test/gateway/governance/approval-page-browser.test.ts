// The approval page in a real browser (Debian chromium through playwright-core) against a real
// `toolgate start` in development, whose portal signs people in through the development identity provider
// (issue 25: "The approval page (/portal/approvals/<id> on the admin listener; pending approvals at
// GET /admin/api/v1/approvals) shows the call in human terms … Approve / reject, with CSRF protection and
// sign-in through the configured provider"; "Four-eyes: alice cannot approve her own call; bob with the
// role can"). Approvals are created by the consent service on the running gateway's own database, with
// GovernedCalls built here, as the call path creates them.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeJwt } from 'jose';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import {
  BROWSER_ACTION_TIMEOUT_MS,
  chromiumArgs,
  ensureChromium,
  freshProfile,
} from '../../helpers/chromium.js';
import { finished, spawnCli, waitForSummary } from '../../helpers/process.js';
import { openSqlite } from '../../../src/shared/db/sqlite.js';
import type { Database } from '../../../src/shared/db/types.js';
import { createDevIdp } from '../../../src/gateway/auth/dev-idp/idp.js';
import { Consent, bindingOf } from '../../../src/gateway/governance/consent/service.js';
import type { Approval } from '../../../src/gateway/governance/contracts.js';
import { generateSampleDirectory } from '../../../src/payments/directory/sample.js';
import { consentDecision, paymentCall } from './consent-support.js';

/** A payee whose bank the shipped sample directory holds (its name is what the page must show). */
const PAYEE = generateSampleDirectory().exampleIbans[0]!.iban;

const availability = ensureChromium();
const skip =
  'skip' in availability ? `approval page browser suite skipped: ${availability.skip}` : false;
if (skip) console.log(`# ${skip}`);

interface Summary {
  adminUrl: string;
  portalUrl: string;
  adminToken: string;
  mcpUrl: string;
  sampleToken: string;
}

describe('the approval page in a real browser', { skip }, () => {
  let child: ReturnType<typeof spawnCli>;
  let summary: Summary;
  let dataDir: string;
  let db: Database;
  let consent: Consent;
  let issuer: string;
  const contexts: BrowserContext[] = [];
  let alice: Page;
  let bob: Page;
  let confirmCall: ReturnType<typeof paymentCall>;
  let confirmApproval: Approval;
  let approveCall: ReturnType<typeof paymentCall>;
  let fourEyes: Approval;

  const launch = async (): Promise<Page> => {
    const context = await chromium.launchPersistentContext(freshProfile(), {
      executablePath: (availability as { path: string }).path,
      args: chromiumArgs(),
      headless: true,
      viewport: { width: 1200, height: 900 },
    });
    context.setDefaultTimeout(BROWSER_ACTION_TIMEOUT_MS);
    contexts.push(context);
    return context.pages()[0] ?? (await context.newPage());
  };

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'toolgate-approval-page-'));
    child = spawnCli(['start', '--json'], {
      TOOLGATE_DATA_DIR: dataDir,
      TOOLGATE_GATEWAY_PORT: '0',
      TOOLGATE_PAYMENTS_PORT: '0',
      TOOLGATE_ADMIN_PORT: '0',
    });
    summary = (await waitForSummary(child)) as unknown as Summary;
    // The development provider signs both the MCP tokens and the portal's ID tokens: one issuer.
    issuer = String(decodeJwt(summary.sampleToken).iss);
    db = openSqlite({ path: join(dataDir, 'gateway.db') });
    consent = new Consent({ db, ttlSeconds: 900, adminBaseUrl: summary.adminUrl });
    // alice's payment of 1,500 EUR needs her own confirmation; her 15,000 EUR one a second person's.
    confirmCall = paymentCall({ issuer, amount: '1500.00', payee: PAYEE });
    confirmApproval = await consent.request(confirmCall, consentDecision('confirm'));
    approveCall = paymentCall({ issuer, amount: '15000.00' });
    fourEyes = await consent.request(approveCall, consentDecision('approve'));
    alice = await launch();
    bob = await launch();
  });

  after(async () => {
    for (const context of contexts) await context.close();
    await db?.close();
    if (child && child.exitCode === null) {
      child.kill('SIGTERM');
      await finished(child, 20000).catch(() => undefined);
    }
  });

  /** From the portal's sign-in page through the development provider as `name`, back to the portal. */
  async function signIn(page: Page, name: string, landing: RegExp): Promise<void> {
    await page.getByRole('link', { name: 'Sign in with OpenID Connect' }).click();
    await page.getByRole('button', { name }).click();
    const deadline = Date.now() + 15000;
    while (!landing.test(page.url())) {
      assert.ok(Date.now() < deadline, `never reached ${landing} (at ${page.url()})`);
      const allow = page.getByRole('button', { name: 'Allow' });
      if ((await allow.count()) > 0) await allow.click();
      else await page.waitForLoadState('load');
    }
  }

  const mainText = async (page: Page) => (await page.locator('main').textContent()) ?? '';

  test('alice opens the link she was given, signs in, and lands back on the approval page', async () => {
    await alice.goto(confirmApproval.url);
    assert.match(alice.url(), /\/portal\/sign-in$/);
    await signIn(alice, 'Alice Example', /\/portal\/approvals\/apv_/);
    assert.equal(new URL(alice.url()).pathname, `/portal/approvals/${confirmApproval.id}`);
    assert.equal(await alice.locator('h1').textContent(), 'Confirm a payment');
    const text = await mainText(alice);
    assert.match(text, /Payments above 1,000 EUR need your confirmation\./, "the rule's message");
    assert.match(await alice.locator('#payment-amount').innerText(), /€1,500\.00/);
    assert.match(await alice.locator('#payment-payer').innerText(), /DE89370400440532013000/);
    assert.match(await alice.locator('#payment-payee').innerText(), /Ada Lovelace, /);
    assert.ok((await alice.locator('#payment-payee').innerText()).includes(PAYEE));
    assert.match(await alice.locator('#payment-date').innerText(), /2026-08-03/);
    // Bank names and the fee quote come from the running payment service (best effort, never blocking):
    // the payee's bank is in the sample directory, the payer's made-up bank is not.
    assert.equal(await alice.locator('#payment-payee .bank').count(), 1);
    assert.ok((await alice.locator('#payment-payee .bank').innerText()).trim().length > 2);
    assert.match(await alice.locator('#payment-payer').innerText(), /bank not in the directory/);
    assert.match(await alice.locator('#payment-fees').innerText(), /€\d+\.\d\d \([A-Z_]+\)/);
    assert.match(text, /invoice-agent/);
  });

  test('CSRF: a decision without the form token, or with a wrong one, is refused', async () => {
    const action = `${summary.portalUrl}approvals/${confirmApproval.id}/approve`;
    const missing = await alice.request.post(action, { form: {} });
    assert.equal(missing.status(), 403);
    assert.match(await missing.text(), /missing or wrong CSRF token/);
    const wrong = await alice.request.post(action, { form: { _csrf: 'not-the-token' } });
    assert.equal(wrong.status(), 403);
    const still = await consent.get(confirmApproval.id);
    assert.equal(still?.status, 'pending', 'nothing was decided');
  });

  test('alice confirms her own call; its receipt redeems once for exactly this call', async () => {
    await alice.getByRole('button', { name: 'Confirm' }).click();
    await alice.waitForURL(/done=approved$/);
    assert.match(await alice.locator('#approval-status').innerText(), /approved.*Approved by/is);
    const binding = bindingOf(confirmCall, consentDecision('confirm'));
    const other = await consent.redeem(
      { ...binding, argumentsHash: 'f'.repeat(64) },
      confirmApproval.id,
    );
    assert.equal(!other.ok && other.reason, 'mismatch');
    assert.ok((await consent.redeem(binding, confirmApproval.id)).ok);
    const again = await consent.redeem(binding, confirmApproval.id);
    assert.equal(!again.ok && again.reason, 'used');
    await alice.reload();
    assert.match(await alice.locator('#approval-status').innerText(), /used/i);
  });

  test('four-eyes: alice sees her 15,000 EUR payment but cannot approve it (the page says why; a forged form is refused)', async () => {
    await alice.goto(fourEyes.url);
    assert.equal(await alice.locator('h1').textContent(), 'Approve a payment');
    assert.match(
      await alice.locator('#approval-refusal').innerText(),
      /You made this call, so someone else must approve it \(four-eyes\)\./,
    );
    assert.equal(await alice.getByRole('button', { name: 'Approve' }).count(), 0);
    const csrf = await alice.locator('input[name="_csrf"]').first().inputValue();
    const forged = await alice.request.post(
      `${summary.portalUrl}approvals/${fourEyes.id}/approve`,
      {
        form: { _csrf: csrf },
      },
    );
    assert.equal(forged.status(), 403);
    assert.match(await forged.text(), /someone else must approve it/);
    assert.equal((await consent.get(fourEyes.id))?.status, 'pending');
  });

  test('the admin API lists the pending approvals: the bootstrap admin all, bob (role) the one he may decide, alice none', async () => {
    const list = async (token: string, query = '') => {
      const response = await fetch(`${summary.adminUrl}/admin/api/v1/approvals${query}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      assert.equal(response.status, 200);
      return ((await response.json()) as { approvals: { id: string; status: string }[] }).approvals;
    };
    assert.deepEqual(
      (await list(summary.adminToken)).map((a) => a.id),
      [fourEyes.id],
    );
    assert.deepEqual(
      (await list(summary.adminToken, '?status=used')).map((a) => a.id),
      [confirmApproval.id],
    );
    const idp = await createDevIdp({ dataDir });
    const audience = String(decodeJwt(summary.sampleToken).aud);
    const bobToken = await idp.mintToken({
      sub: 'bob',
      claims: { roles: 'payments-approver' },
      audience,
      issuer,
    });
    assert.deepEqual(
      (await list(bobToken)).map((a) => a.id),
      [fourEyes.id],
    );
    assert.deepEqual(await list(summary.sampleToken), [], 'alice may decide none of them');
    const bad = await fetch(`${summary.adminUrl}/admin/api/v1/approvals?status=nope`, {
      headers: { authorization: `Bearer ${summary.adminToken}` },
    });
    assert.equal(bad.status, 400);
  });

  test('bob, holding payments-approver, finds it among his approvals and approves it', async () => {
    await bob.goto(`${summary.portalUrl}approvals`);
    // Landed: a portal page that is neither the sign-in page nor the sign-in callback, which is still
    // redirecting (stopping there let the next goto race the callback's redirect).
    await signIn(bob, 'Bob Example', /\/portal\/(?!sign-in|auth\/)/);
    await bob.goto(`${summary.portalUrl}approvals`);
    await bob.getByRole('link', { name: 'createPayment' }).click();
    assert.equal(new URL(bob.url()).pathname, `/portal/approvals/${fourEyes.id}`);
    assert.match(await mainText(bob), /second person with the role payments-approver/);
    await bob.getByRole('button', { name: 'Approve' }).click();
    await bob.waitForURL(/done=approved$/);
    const approved = await consent.get(fourEyes.id);
    assert.equal(approved?.status, 'approved');
    assert.equal(approved?.decidedBy, 'bob');
    assert.ok((await consent.redeem(bindingOf(approveCall, consentDecision('approve')))).ok);

    const audit = await fetch(`${summary.adminUrl}/admin/api/v1/audit?action=approval.approve`, {
      headers: { authorization: `Bearer ${summary.adminToken}` },
    });
    const entries = JSON.stringify(await audit.json());
    assert.ok(entries.includes(fourEyes.callId), 'the audit entry carries the call id');
    assert.ok(entries.includes(confirmApproval.callId));
  });
});
