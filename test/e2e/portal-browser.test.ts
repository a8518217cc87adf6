// The portal in a real browser (Debian chromium through playwright-core) against a real `toolgate start`
// (gateway, payment service and admin listener as one process): an admin signs in with the bootstrap
// token; a developer signs in through a real OpenID provider (oidc-provider), requests access for
// development and production; the admin approves; the developer sees each key once, copies the client
// block, and a real MCP tools/call with that key succeeds; a rejected request's application has no key;
// an identity-provider change made in the portal (keyboard only) is honoured by the running gateway
// without a restart and appears in the audit log. Screenshots of the main screens go to docs/portal/.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Provider from 'oidc-provider';
import { SignJWT, exportJWK, generateKeyPair, type CryptoKey, type JWK } from 'jose';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import {
  BROWSER_ACTION_TIMEOUT_MS,
  chromiumArgs,
  ensureChromium,
  freshProfile,
} from '../helpers/chromium.js';
import { finished, spawnCli, waitForSummary } from '../helpers/process.js';
import { rpc } from '../helpers/mcp-http.js';

const availability = ensureChromium();
const skip = 'skip' in availability ? `portal browser suite skipped: ${availability.skip}` : false;
if (skip) console.log(`# ${skip}`);

// The screenshots in docs/portal/ are refreshed only when asked (TOOLGATE_PORTAL_SCREENSHOTS=1), so a
// test run leaves the working tree as it found it; otherwise they go to a temporary folder.
const SHOTS =
  process.env.TOOLGATE_PORTAL_SCREENSHOTS === '1'
    ? join(process.cwd(), 'docs', 'portal')
    : mkdtempSync(join(tmpdir(), 'toolgate-portal-shots-'));
const CLIENT_ID = 'toolgate-portal';
const CLIENT_SECRET = 'portal-client-secret-for-the-browser-test';

interface Summary {
  adminUrl: string;
  portalUrl: string;
  adminToken: string;
  mcpUrl: string;
  sampleToken: string;
}

/** A loopback server handing out a discovery document and a JWKS for one issuer ("the new provider"). */
async function startKeyServer(): Promise<{
  issuer: string;
  key: CryptoKey;
  kid: string;
  close(): Promise<void>;
}> {
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  const kid = 'new-provider-key-1';
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' };
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}/new-idp`;
  server.on('request', (req, res) => {
    const body =
      req.url === '/new-idp/.well-known/openid-configuration'
        ? { issuer, jwks_uri: `${issuer}/jwks.json` }
        : req.url === '/new-idp/jwks.json'
          ? { keys: [jwk] }
          : undefined;
    if (body === undefined) res.writeHead(404).end();
    else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  return {
    issuer,
    key: privateKey,
    kid,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** oidc-provider on a loopback port whose address is known before the provider is configured. */
async function startOidcServer(): Promise<{
  issuer: string;
  configure(redirectUri: string): void;
  close(): Promise<void>;
}> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let provider: Provider | undefined;
  server.on('request', (req, res) => {
    if (provider === undefined) res.writeHead(503).end();
    else void provider.callback()(req, res);
  });
  return {
    issuer,
    configure(redirectUri) {
      provider = new Provider(issuer, {
        clients: [
          {
            client_id: CLIENT_ID,
            client_secret: CLIENT_SECRET,
            redirect_uris: [redirectUri],
            grant_types: ['authorization_code'],
            response_types: ['code'],
            token_endpoint_auth_method: 'client_secret_basic',
          },
        ],
        cookies: { keys: ['browser-test-cookie-key-0123456789'] },
        // Accounts are whoever signs in; "root" holds the portal's admin role in the `roles` claim.
        findAccount: (_ctx: unknown, id: string) => ({
          accountId: id,
          claims: () => ({ sub: id, roles: id === 'root' ? ['toolgate-admin'] : ['reader'] }),
        }),
        claims: { openid: ['sub'], roles: ['roles'] },
        scopes: ['openid', 'roles'],
        conformIdTokenClaims: false,
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('portal in a real browser', { skip }, () => {
  let child: ReturnType<typeof spawnCli>;
  let summary: Summary;
  let keyServer: Awaited<ReturnType<typeof startKeyServer>>;
  let oidc: Awaited<ReturnType<typeof startOidcServer>>;
  let adminContext: BrowserContext;
  let devContext: BrowserContext;
  let admin: Page;
  let dev: Page;
  let developmentKey = '';

  before(async () => {
    keyServer = await startKeyServer();
    oidc = await startOidcServer();
    const dataDir = mkdtempSync(join(tmpdir(), 'toolgate-portal-browser-'));
    const configFile = join(dataDir, 'toolgate.json');
    writeFileSync(
      configFile,
      JSON.stringify({
        admin: {
          oidc: {
            issuer: oidc.issuer,
            clientId: CLIENT_ID,
            clientSecret: CLIENT_SECRET,
            scopes: ['openid', 'roles'],
          },
        },
        gateway: { auth: { settingsRefreshMs: 300 } },
      }),
    );
    child = spawnCli(['start', '--json', '--config', configFile], {
      TOOLGATE_DATA_DIR: dataDir,
      TOOLGATE_GATEWAY_PORT: '0',
      TOOLGATE_PAYMENTS_PORT: '0',
      TOOLGATE_ADMIN_PORT: '0',
    });
    summary = (await waitForSummary(child)) as unknown as Summary;
    oidc.configure(`${summary.adminUrl}/portal/auth/callback`);
    // One browser per person, each with a fresh profile: separate cookies, like two people.
    const launch = () =>
      chromium.launchPersistentContext(freshProfile(), {
        executablePath: (availability as { path: string }).path,
        args: chromiumArgs(),
        headless: true,
        viewport: { width: 1200, height: 900 },
      });
    adminContext = await launch();
    devContext = await launch();
    adminContext.setDefaultTimeout(BROWSER_ACTION_TIMEOUT_MS);
    devContext.setDefaultTimeout(BROWSER_ACTION_TIMEOUT_MS);
    const origin = new URL(summary.adminUrl).origin;
    await devContext.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
    admin = adminContext.pages()[0] ?? (await adminContext.newPage());
    dev = devContext.pages()[0] ?? (await devContext.newPage());
  });

  after(async () => {
    await adminContext?.close();
    await devContext?.close();
    if (child && child.exitCode === null) {
      child.kill('SIGTERM');
      await finished(child, 20000).catch(() => undefined);
    }
    await oidc?.close();
    await keyServer?.close();
  });

  const shot = (page: Page, name: string) =>
    page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });

  test('the admin signs in with the bootstrap token, typed and sent with Enter', async () => {
    await admin.goto(summary.portalUrl);
    assert.match(admin.url(), /\/portal\/sign-in$/);
    await shot(admin, 'sign-in');
    await admin.getByLabel('Token').fill('not-the-token');
    await admin.getByLabel('Token').press('Enter');
    await admin.getByText('This token is not accepted.').waitFor();
    await admin.getByLabel('Token').fill(summary.adminToken);
    await admin.getByLabel('Token').press('Enter');
    await admin.waitForURL(/\/portal\/admin\/requests$/);
    assert.equal(await admin.locator('h1').textContent(), 'Access requests');
  });

  test('a developer signs in through OpenID Connect (code + PKCE) and is a developer', async () => {
    await dev.goto(`${summary.portalUrl}sign-in`);
    await dev.getByRole('link', { name: 'Sign in with OpenID Connect' }).click();
    await dev.locator('input[name="login"]').fill('dana');
    await dev.locator('input[name="password"]').fill('any');
    await dev.getByRole('button', { name: 'Sign-in' }).click();
    await dev.getByRole('button', { name: 'Continue' }).click();
    await dev.waitForURL(/\/portal\/applications$/);
    assert.match((await dev.locator('header').textContent()) ?? '', /dana\s+\(developer\)/);
    await dev.goto(`${summary.portalUrl}admin/requests`);
    assert.match((await dev.locator('main').textContent()) ?? '', /for administrators/);
  });

  test('keyboard only: Tab reaches every control of the request form in order', async () => {
    await dev.goto(`${summary.portalUrl}request`);
    const controls = (await dev
      .locator(
        'main form input:not([type=hidden]), main form select, main form textarea, main form button',
      )
      .evaluateAll((els) => els.map((e) => e.id || `${e.tagName}:${e.textContent}`))) as string[];
    const reached: string[] = [];
    await dev.locator('body').focus();
    for (let i = 0; i < 40 && reached.length < 40; i += 1) {
      await dev.keyboard.press('Tab');
      const id = await dev.evaluate<string>(
        '(() => { const el = document.activeElement; return el ? el.id || `${el.tagName}:${el.textContent}` : ""; })()',
      );
      reached.push(id);
      if (id === 'BUTTON:Request access') break;
    }
    assert.equal(reached[0], 'A:Skip to content', 'the skip link comes first');
    const radioGroups = new Set(['tools-some']); // arrow keys move within a radio group
    for (const control of controls.filter((c) => !radioGroups.has(c)))
      assert.ok(reached.includes(control), `Tab reaches ${control}; reached ${reached.join(', ')}`);
    const order = controls.filter((c) => reached.includes(c)).map((c) => reached.indexOf(c));
    assert.deepEqual(
      order,
      [...order].sort((a, b) => a - b),
      'in document order',
    );
    for (const id of controls.filter(
      (c) => c.startsWith('f-') || c.startsWith('env-') || c.startsWith('tools-'),
    ))
      assert.equal(await dev.locator(`label[for="${id}"]`).count(), 1, `${id} has a label`);
  });

  test('developer requests access for development and production; errors sit next to their fields', async () => {
    await dev.goto(`${summary.portalUrl}request`);
    await dev.getByRole('button', { name: 'Request access' }).click();
    const appError = dev.locator('#f-application-error');
    await appError.waitFor();
    assert.equal(
      await dev.getByLabel('Application').getAttribute('aria-describedby'),
      'f-application-hint f-application-error',
    );
    await shot(dev, 'request-access-errors');
    await dev.getByLabel('Application').fill('invoice-agent');
    await dev.getByLabel('Owner name').fill('Dana Developer');
    await dev.getByLabel('Owner e-mail').fill('dana@example.com');
    await dev.getByLabel('All approved tools').check();
    await dev.getByLabel('development').check();
    await dev.getByLabel('production').check();
    await dev.getByLabel('Justification').fill('Our invoice agent pays suppliers.');
    await dev.getByRole('button', { name: 'Request access' }).click();
    await dev.waitForURL(/\/portal\/applications\?done=requested$/);
    assert.match((await dev.locator('main').textContent()) ?? '', /pending/);

    // A second request, which the admin will reject.
    await dev.goto(`${summary.portalUrl}request`);
    await dev.getByLabel('Application').fill('rejected-agent');
    await dev.getByLabel('Owner name').fill('Dana Developer');
    await dev.getByLabel('Owner e-mail').fill('dana@example.com');
    await dev.getByLabel('production').check();
    await dev.getByLabel('Justification').fill('Please.');
    await dev.getByRole('button', { name: 'Request access' }).click();
    await dev.waitForURL(/done=requested/);
  });

  test('the admin approves one request and rejects the other with a reason', async () => {
    await admin.goto(`${summary.portalUrl}admin/requests`);
    await shot(admin, 'admin-requests');
    const approveSection = admin.locator('section', { hasText: 'invoice-agent' });
    await approveSection.getByLabel('Quota per minute (optional)').fill('600');
    await approveSection.getByRole('button', { name: 'Approve' }).click();
    await admin.waitForURL(/done=approved/);
    const rejectSection = admin.locator('section', { hasText: 'rejected-agent' });
    await rejectSection
      .getByLabel('Reason for rejecting')
      .fill('production needs a security review');
    await rejectSection.getByRole('button', { name: 'Reject' }).click();
    await admin.waitForURL(/done=rejected/);
    assert.match((await admin.locator('main').textContent()) ?? '', /No pending requests/);
  });

  test('the developer collects the keys once, copies the client block; reload shows them masked', async () => {
    await dev.goto(`${summary.portalUrl}applications`);
    await dev.getByRole('button', { name: 'Collect keys for invoice-agent' }).click();
    await dev.locator('h1', { hasText: 'Your keys' }).waitFor();
    const keys: Record<string, string> = {};
    for (const env of ['development', 'production'])
      for (const slot of ['primary', 'secondary'])
        keys[`${env}-${slot}`] = (
          (await dev.locator(`#key-${env}-${slot}`).textContent()) ?? ''
        ).trim();
    for (const key of Object.values(keys)) assert.match(key, /^tgk_[A-Za-z0-9]+$/);
    developmentKey = keys['development-primary'] as string;
    await shot(dev, 'keys-once');

    await dev.getByRole('button', { name: 'Copy client block' }).first().click();
    await dev.getByText('Copied').first().waitFor();
    const copied = JSON.parse(await dev.evaluate<string>('navigator.clipboard.readText()')) as {
      mcpServers: Record<string, { type: string; url: string; headers: Record<string, string> }>;
    };
    const entry = Object.values(copied.mcpServers)[0];
    assert.ok(entry);
    assert.equal(entry.type, 'http');
    assert.equal(entry.url, summary.mcpUrl);
    assert.equal(entry.headers['Ocp-Apim-Subscription-Key'], developmentKey);

    await dev.goto(`${summary.portalUrl}applications`);
    const text = (await dev.locator('main').textContent()) ?? '';
    for (const key of Object.values(keys)) {
      assert.ok(!text.includes(key), 'a key is never shown again');
      assert.ok(text.includes(`…${key.slice(-4)}`), 'it is shown masked');
    }
    assert.match(text, /Reason: production needs a security review/);
    assert.equal(
      await dev.getByRole('button', { name: 'Collect keys for rejected-agent' }).count(),
      0,
    );
    await shot(dev, 'my-applications');
  });

  test('a real MCP tools/call works with the collected key; the rejected application has no key', async () => {
    const user = {
      'Ocp-Apim-Subscription-Key': developmentKey,
      Authorization: `Bearer ${summary.sampleToken}`,
    };
    const call = await rpc(summary.mcpUrl, user, 'tools/call', {
      name: 'getMyAccountBalance',
      arguments: {},
    });
    assert.equal(call.status, 200, JSON.stringify(call.body));
    assert.equal(call.body.result.isError, undefined, JSON.stringify(call.body));

    const subscriptions = await fetch(`${summary.adminUrl}/admin/api/v1/subscriptions`, {
      headers: { authorization: `Bearer ${summary.adminToken}` },
    });
    assert.equal(subscriptions.status, 200);
    const all = JSON.stringify(await subscriptions.json());
    assert.match(all, /invoice-agent/);
    assert.doesNotMatch(all, /rejected-agent/, 'nothing was provisioned for the rejected request');
  });

  // Issue 27, "The portal": catalogue → request (picked from the catalogue) → approve → collect → Try it,
  // a real tools/call through the running gateway with the collected key, its answer shown.
  test('catalogue → request picked from it → approve → collect → Try it calls the gateway', async () => {
    await dev.goto(`${summary.portalUrl}catalogue`);
    await dev.getByRole('link', { name: 'fetchBankDetails', exact: true }).click();
    await dev.locator('h1', { hasText: 'fetchBankDetails' }).waitFor();
    const detail = (await dev.locator('main').textContent()) ?? '';
    assert.match(detail, /Security class\s*public/);
    assert.match((await dev.locator('#example-call').textContent()) ?? '', /"tools\/call"/);
    await shot(dev, 'catalogue-tool');
    await dev.getByRole('link', { name: 'Request access to this tool' }).click();
    await dev.waitForURL(/\/portal\/request\?tools=fetchBankDetails$/);
    assert.equal(await dev.getByLabel('Only these tools').isChecked(), true);
    assert.equal(await dev.locator('#tool-fetchBankDetails').isChecked(), true);
    assert.equal(await dev.getByLabel('Owner name').inputValue(), 'dana', 'owner prefilled');
    await dev.getByLabel('Application').fill('bank-lookup');
    await dev.getByLabel('Owner e-mail').fill('dana@example.com');
    await dev.getByLabel('Justification').fill('Checks payee banks.');
    await dev.getByRole('button', { name: 'Request access' }).click();
    await dev.waitForURL(/done=requested/);

    await admin.goto(`${summary.portalUrl}admin/requests`);
    await admin
      .locator('section', { hasText: 'bank-lookup' })
      .getByRole('button', { name: 'Approve' })
      .click();
    await admin.waitForURL(/done=approved/);

    await dev.goto(`${summary.portalUrl}applications`);
    await dev.getByRole('button', { name: 'Collect keys for bank-lookup' }).click();
    const key = ((await dev.locator('#key-development-primary').textContent()) ?? '').trim();
    assert.match(key, /^tgk_/);

    await dev.goto(`${summary.portalUrl}catalogue/tools/fetchBankDetails`);
    await dev.getByRole('link', { name: 'Try it' }).click();
    await dev.locator('h1', { hasText: 'Try fetchBankDetails' }).waitFor();
    await dev.getByLabel('Subscription key').fill(key);
    // A sample routing number of the shipped (synthetic) bank directory (README, docs/bank-directory.md).
    await dev.locator('#f-arg_body_identificationType').selectOption({ label: 'ROUTING_NUMBER' });
    await dev.locator('#f-arg_body_identificationNumber').fill('011085645');
    await dev.getByRole('button', { name: 'Call fetchBankDetails' }).click();
    await dev.locator('#try-result').waitFor();
    const result = (await dev.locator('#try-result').textContent()) ?? '';
    assert.match(result, /HTTP 200/, result);
    assert.match(result, /isError: false/, result);
    assert.match(result, /Structured content/, result);
    assert.match(result, /Harbor Bank & Trust/, result);
    assert.ok(!(await dev.content()).includes(key), 'the page does not echo the key');
    await shot(dev, 'try-it');
  });

  /** Presses Tab until the focused element matches (id, or TAG:text); fails after `max` presses. */
  async function tabTo(page: Page, target: string, max = 80): Promise<void> {
    for (let i = 0; i < max; i += 1) {
      await page.keyboard.press('Tab');
      const focused = await page.evaluate<string>(
        '(() => { const el = document.activeElement; return el ? el.id || `${el.tagName}:${el.textContent}` : ""; })()',
      );
      if (focused === target) return;
    }
    assert.fail(`Tab never reached ${target}`);
  }

  /** Replaces the focused field's text, from the keyboard. */
  async function retype(page: Page, text: string): Promise<void> {
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Delete');
    if (text !== '') await page.keyboard.type(text);
  }

  test('an identity-provider change made in the portal (keyboard only) is honoured without a restart', async () => {
    const tokenOf = (issuer: string) =>
      new SignJWT({ email: 'alice@example.com' })
        .setProtectedHeader({ alg: 'ES256', kid: keyServer.kid, typ: 'JWT' })
        .setIssuer(issuer)
        .setAudience(summary.mcpUrl)
        .setSubject('alice')
        .setIssuedAt()
        .setExpirationTime('10m')
        .sign(keyServer.key);
    const newToken = await tokenOf(keyServer.issuer);
    const call = (token: string) =>
      rpc(
        summary.mcpUrl,
        { 'Ocp-Apim-Subscription-Key': developmentKey, Authorization: `Bearer ${token}` },
        'tools/call',
        { name: 'getMyAccountBalance', arguments: {} },
      );
    assert.equal((await call(newToken)).status, 401, 'before the change the new issuer is unknown');

    await admin.goto(`${summary.portalUrl}admin/identity-provider`);
    await admin.locator('body').focus();
    await tabTo(admin, 'f-issuer');
    await retype(admin, keyServer.issuer);
    await admin.keyboard.press('Tab');
    assert.equal(await admin.evaluate<string>('document.activeElement.id'), 'f-audience');
    await retype(admin, summary.mcpUrl);
    await admin.keyboard.press('Tab');
    await retype(admin, `${keyServer.issuer}/.well-known/openid-configuration`);
    await admin.keyboard.press('Tab');
    await retype(admin, ''); // no static keys: they come from discovery
    await admin.keyboard.press('Tab');
    await retype(admin, 'ES256');
    await tabTo(admin, 'f-sampleToken');
    await admin.keyboard.type(newToken);
    await tabTo(admin, 'BUTTON:Validate');
    await admin.keyboard.press('Enter');
    await admin.locator('#report-title').waitFor();
    const report =
      (await admin.locator('section[aria-labelledby="report-title"]').textContent()) ?? '';
    assert.match(report, /the gateway can use these settings/);
    assert.ok(report.includes(keyServer.kid), 'the key id found through discovery is shown');
    assert.match(report, /Sample token:\s*accepted/);
    await shot(admin, 'identity-provider-validated');

    await admin.locator('body').focus();
    await tabTo(admin, 'BUTTON:Save');
    await admin.keyboard.press('Enter');
    await admin.waitForURL(/done=saved/);
    await shot(admin, 'identity-provider-saved');

    // The running gateway picks the stored version up within its refresh interval: poll, no timing claims.
    const deadline = Date.now() + 30_000;
    let accepted = await call(newToken);
    while (accepted.status !== 200 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      accepted = await call(newToken);
    }
    assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
    assert.equal(accepted.body.result.isError, undefined, JSON.stringify(accepted.body));
    const old = await call(summary.sampleToken);
    assert.equal(old.status, 401, 'a token of the old issuer is refused now');

    await admin.goto(`${summary.portalUrl}admin/audit?action=identity-provider.update`);
    const audit = (await admin.locator('main').textContent()) ?? '';
    assert.match(audit, /identity-provider\.update/);
    assert.ok(audit.includes(keyServer.issuer));
  });

  test('the admin sees subscriptions with key age, and the audit log', async () => {
    await admin.goto(`${summary.portalUrl}admin/subscriptions`);
    assert.match((await admin.locator('main').textContent()) ?? '', /0 days old/);
    await shot(admin, 'admin-subscriptions');
    await admin.goto(`${summary.portalUrl}admin/tools`);
    assert.match((await admin.locator('main').textContent()) ?? '', /getMyAccountBalance/);
    await shot(admin, 'admin-tools');
    await dev.goto(`${summary.portalUrl}usage?window=day`);
    assert.equal(await dev.locator('h1').textContent(), 'Usage');
    await shot(dev, 'usage');
    await admin.goto(`${summary.portalUrl}admin/audit`);
    const text = (await admin.locator('main').textContent()) ?? '';
    assert.match(text, /access-request\.approve/);
    assert.match(text, /access-request\.reject/);
    assert.match(text, /Hash chain verified/);
    assert.ok(!text.includes(developmentKey), 'no key in the audit log');
    await shot(admin, 'audit-log');
  });

  test('sign-out ends the session', async () => {
    await dev.getByRole('button', { name: 'Sign out' }).click();
    await dev.goto(`${summary.portalUrl}applications`);
    assert.match(dev.url(), /\/portal\/sign-in$/);
  });

  test('an OpenID Connect user whose roles claim holds the admin role is an admin', async () => {
    const rootContext = await chromium.launchPersistentContext(freshProfile(), {
      executablePath: (availability as { path: string }).path,
      args: chromiumArgs(),
      headless: true,
    });
    try {
      rootContext.setDefaultTimeout(BROWSER_ACTION_TIMEOUT_MS);
      const root = rootContext.pages()[0] ?? (await rootContext.newPage());
      await root.goto(`${summary.portalUrl}auth/oidc`);
      await root.locator('input[name="login"]').fill('root');
      await root.locator('input[name="password"]').fill('any');
      await root.getByRole('button', { name: 'Sign-in' }).click();
      await root.getByRole('button', { name: 'Continue' }).click();
      await root.waitForURL(/\/portal\/admin\/requests$/);
      assert.match((await root.locator('header').textContent()) ?? '', /root\s+\(admin\)/);
    } finally {
      await rootContext.close();
    }
  });
});
