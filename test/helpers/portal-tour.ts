// A seeded portal to look at: a real `toolgate start` (gateway, payment service, admin listener) with
// applications in every state (approved with keys, pending, rejected), real MCP calls recorded as usage
// (successes, errors, quota refusals), and audited changes with a before and after. Used by the layout
// checks (test/e2e/portal-layout.test.ts) and by scripts/portal-screenshots.mjs, which makes the
// screenshots in docs/portal/ from the same data, so they can be made again.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { finished, spawnCli, waitForSummary } from './process.js';
import { rpc } from './mcp-http.js';

export interface SeededPortal {
  readonly adminUrl: string;
  readonly portalUrl: string;
  readonly adminToken: string;
  readonly mcpUrl: string;
  /** The subscription (development) of `invoice-agent`, which has usage. */
  readonly subscriptionId: string;
  /** A pending request's application, whose keys the admin may collect in the portal (keys page). */
  readonly uncollected: string;
  close(): Promise<void>;
}

/** The portal's pages, each checked for fit and photographed (name: the screenshot's file name). */
export interface TourPage {
  readonly name: string;
  /** Path under /portal/ ({subscription} is replaced). */
  readonly path: string;
  /** Photographed by scripts/portal-screenshots.mjs (default yes; the browser suite makes the others). */
  readonly photo?: boolean;
}

export const TOUR_PAGES: readonly TourPage[] = [
  { name: 'admin-requests', path: 'admin/requests' },
  { name: 'admin-subscriptions', path: 'admin/subscriptions' },
  { name: 'admin-subscription-limits', path: 'admin/subscriptions/{subscription}' },
  { name: 'admin-tools', path: 'admin/tools' },
  { name: 'admin-tool', path: 'admin/tools/getPayment' },
  { name: 'admin-identity-provider', path: 'admin/identity-provider' },
  { name: 'admin-policies', path: 'admin/policies' },
  { name: 'audit-log', path: 'admin/audit' },
  { name: 'catalogue', path: 'catalogue' },
  { name: 'catalogue-tool', path: 'catalogue/tools/createPayment', photo: false },
  { name: 'try-it', path: 'catalogue/tools/getMyAccountBalance/try', photo: false },
  { name: 'my-applications', path: 'applications' },
  { name: 'request-access', path: 'request' },
  { name: 'usage', path: 'usage?window=hour' },
  { name: 'approvals', path: 'approvals' },
];

export const pathOf = (page: TourPage, seeded: SeededPortal): string =>
  `${seeded.portalUrl}${page.path.replace('{subscription}', seeded.subscriptionId)}`;

interface Summary {
  adminUrl: string;
  portalUrl: string;
  adminToken: string;
  mcpUrl: string;
  sampleToken: string;
}

export async function startSeededPortal(): Promise<SeededPortal> {
  const dataDir = mkdtempSync(join(tmpdir(), 'toolgate-portal-tour-'));
  const configFile = join(dataDir, 'toolgate.json');
  // Usage reaches the table quickly, so the seeded calls show without waiting seconds.
  writeFileSync(configFile, JSON.stringify({ gateway: { usage: { flushMs: 200 } } }));
  const child = spawnCli(['start', '--json', '--config', configFile], {
    TOOLGATE_DATA_DIR: dataDir,
    TOOLGATE_GATEWAY_PORT: '0',
    TOOLGATE_PAYMENTS_PORT: '0',
    TOOLGATE_ADMIN_PORT: '0',
  });
  const close = async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await finished(child, 20000).catch(() => undefined);
    }
  };
  try {
    const summary = (await waitForSummary(child)) as unknown as Summary;
    const api = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${summary.adminUrl}/admin/api/v1${path}`, {
        method,
        headers: {
          authorization: `Bearer ${summary.adminToken}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
      return (text === '' ? {} : JSON.parse(text)) as Record<string, unknown>;
    };
    const owner = { name: 'Dana Developer', email: 'dana@example.com' };
    const request = (application: string, tools: string[] | 'all', environments: string[]) =>
      api('POST', '/access-requests', {
        application,
        owner,
        tools,
        environments,
        justification: `The ${application} pays and reconciles supplier invoices.`,
      }) as Promise<{ id: string }>;

    const approved = await request('invoice-agent', 'all', ['development', 'production']);
    // A small quota, so some of the seeded calls are refused.
    await api('POST', `/access-requests/${approved.id}/approve`, { rateLimitPerMinute: 10 });
    const collected = (await api('POST', `/access-requests/${approved.id}/keys`)) as {
      subscriptions: { environment: string; subscriptionId: string; primaryKey: string }[];
    };
    const development = collected.subscriptions.find((s) => s.environment === 'development');
    if (!development) throw new Error('no development subscription');
    const narrow = await request(
      'statement-reader',
      ['getMyAccountBalance', 'getMyTransactionHistory'],
      ['development'],
    );
    await api('POST', `/access-requests/${narrow.id}/approve`, {});
    await request('treasury-bot', ['createPayment', 'getPayment', 'listPayments'], ['production']);
    const rejected = await request('rejected-agent', 'all', ['production']);
    await api('POST', `/access-requests/${rejected.id}/reject`, {
      reason: 'Production needs a security review first.',
    });
    // Audited changes with a before and after.
    await api('PATCH', `/tools/fetchPaymentFees`, { title: 'Quote payment fees' });

    // Usage: successes, a backend error, then quota refusals (14 calls under a quota of 10 a minute).
    const headers = {
      'Ocp-Apim-Subscription-Key': development.primaryKey,
      Authorization: `Bearer ${summary.sampleToken}`,
    };
    for (let i = 0; i < 6; i++)
      await rpc(summary.mcpUrl, headers, 'tools/call', {
        name: 'getMyAccountBalance',
        arguments: {},
      });
    for (let i = 0; i < 3; i++)
      await rpc(summary.mcpUrl, headers, 'tools/call', { name: 'listPayments', arguments: {} });
    await rpc(summary.mcpUrl, headers, 'tools/call', {
      name: 'getPayment',
      arguments: { paymentId: 'no-such-payment' },
    });
    for (let i = 0; i < 4; i++)
      await rpc(summary.mcpUrl, headers, 'tools/call', {
        name: 'getMyAccountBalance',
        arguments: {},
      });
    // Wait for the flush (every 200 ms): poll the usage API, no timing claims.
    const deadline = Date.now() + 20_000;
    for (;;) {
      const usage = (await api('GET', `/usage?subscription=${development.subscriptionId}`)) as {
        rows: { requests: number; quotaRefusals: number }[];
      };
      const refusals = usage.rows.reduce((a, r) => a + r.quotaRefusals, 0);
      if (refusals > 0) break;
      if (Date.now() > deadline) throw new Error(`usage not recorded: ${JSON.stringify(usage)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return {
      adminUrl: summary.adminUrl,
      portalUrl: summary.portalUrl,
      adminToken: summary.adminToken,
      mcpUrl: summary.mcpUrl,
      subscriptionId: development.subscriptionId,
      uncollected: 'statement-reader',
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Signs the admin in with the bootstrap token. */
export async function signInAdmin(page: Page, seeded: SeededPortal): Promise<void> {
  await page.goto(`${seeded.portalUrl}sign-in`);
  await page.getByLabel('Token').fill(seeded.adminToken);
  await page.getByLabel('Token').press('Enter');
  await page.waitForURL(/\/portal\/admin\/requests$/);
}

/** How far the page scrolls sideways (0: it fits), and the widest elements sticking out. */
export async function overflowOf(page: Page): Promise<{ excess: number; culprits: string[] }> {
  return page.evaluate(`(() => {
    const width = window.innerWidth;
    const excess = document.documentElement.scrollWidth - width;
    const culprits = excess <= 0 ? [] : [...document.querySelectorAll('body *')]
      .filter((el) => el.getBoundingClientRect().right > width + 1)
      .slice(0, 5)
      .map((el) => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + (el.className && typeof el.className === 'string' ? '.' + el.className.split(' ').join('.') : '') + ' right=' + Math.round(el.getBoundingClientRect().right));
    return { excess, culprits };
  })()`);
}
