// Issue 27, "Admin pages that fit a screen … usable at 390 px wide": every admin page and the developer
// pages, in a real browser (Debian chromium through playwright-core) against a seeded `toolgate start`,
// fit 1,280 px and 390 px without scrolling sideways (document.documentElement.scrollWidth ≤ innerWidth);
// the header marks the current page; the usage chart shows the seeded calls; destructive actions ask first.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import {
  BROWSER_ACTION_TIMEOUT_MS,
  chromiumArgs,
  ensureChromium,
  freshProfile,
} from '../helpers/chromium.js';
import {
  TOUR_PAGES,
  overflowOf,
  pathOf,
  signInAdmin,
  startSeededPortal,
  type SeededPortal,
} from '../helpers/portal-tour.js';

const availability = ensureChromium();
const skip = 'skip' in availability ? `portal layout suite skipped: ${availability.skip}` : false;
if (skip) console.log(`# ${skip}`);

const WIDTHS = [1280, 390] as const;

describe('portal pages fit the screen (issue 27)', { skip }, () => {
  let seeded: SeededPortal;
  let context: BrowserContext;
  let page: Page;

  before(async () => {
    seeded = await startSeededPortal();
    context = await chromium.launchPersistentContext(freshProfile(), {
      executablePath: (availability as { path: string }).path,
      args: chromiumArgs(),
      headless: true,
      viewport: { width: 1280, height: 900 },
    });
    context.setDefaultTimeout(BROWSER_ACTION_TIMEOUT_MS);
    page = context.pages()[0] ?? (await context.newPage());
  });

  after(async () => {
    await context?.close();
    await seeded?.close();
  });

  for (const width of WIDTHS)
    test(`the sign-in page fits ${width} px`, async () => {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${seeded.portalUrl}sign-in`);
      const { excess, culprits } = await overflowOf(page);
      assert.ok(excess <= 0, `sign-in scrolls sideways by ${excess} px: ${culprits.join(', ')}`);
    });

  test('the admin signs in', async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await signInAdmin(page, seeded);
  });

  for (const width of WIDTHS)
    test(`every admin and developer page fits ${width} px without scrolling sideways`, async () => {
      await page.setViewportSize({ width, height: 900 });
      const failures: string[] = [];
      for (const tour of TOUR_PAGES) {
        const response = await page.goto(pathOf(tour, seeded));
        assert.equal(response?.status(), 200, `${tour.path} answers 200`);
        const { excess, culprits } = await overflowOf(page);
        if (excess > 0) failures.push(`${tour.path}: ${excess} px (${culprits.join(', ')})`);
      }
      assert.deepEqual(failures, [], 'pages that scroll sideways');
    });

  test('the header marks the current page and separates the developer and admin areas', async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${seeded.portalUrl}admin/tools/getPayment`);
    const current = page.locator('header [aria-current="page"]');
    assert.equal(await current.count(), 1);
    assert.equal(await current.textContent(), 'Tools');
    assert.equal(await page.getByRole('navigation', { name: 'Admin' }).count(), 1);
    assert.equal(await page.getByRole('navigation', { name: 'Developer' }).count(), 1);
    await page.goto(`${seeded.portalUrl}usage`);
    assert.equal(await page.locator('header [aria-current="page"]').textContent(), 'Usage');
  });

  test('the tools page is a list, short enough to read (the page was 5,300 px tall)', async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${seeded.portalUrl}admin/tools`);
    const height = await page.evaluate<number>('document.documentElement.scrollHeight');
    assert.ok(height < 1600, `the tools list is ${height} px tall`);
    assert.equal(await page.locator('main form').count(), 0, 'no forms on the list');
  });

  test('the usage chart shows the seeded calls: bars add up to the requests and refusals', async () => {
    await page.setViewportSize({ width: 390, height: 900 });
    await page.goto(`${seeded.portalUrl}usage?window=hour`);
    const section = page.locator('section.usage', {
      hasText: 'getMyAccountBalance · invoice-agent (development)',
    });
    const sum = async (cls: string) =>
      (
        await section
          .locator(`rect.${cls}`)
          .evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-value'))))
      ).reduce((a, b) => a + b, 0);
    // 6 + 4 calls of this tool among 14 under a quota of 10 a minute: each drawn once, refused or not.
    const ok = await sum('bar-ok');
    const errors = await sum('bar-errors');
    const refusals = await sum('bar-refusals');
    assert.equal(ok + errors + refusals, 10, 'every call is drawn once');
    assert.ok(refusals >= 1, 'the quota refusals are drawn');
    const desc = (await section.locator('desc').first().textContent()) ?? '';
    assert.match(desc, new RegExp(`${ok + errors} requests?`));
    assert.equal(await section.locator('svg[role="img"]').count(), 2);
  });

  test('rotating a key asks first, and the question fits 390 px', async () => {
    await page.setViewportSize({ width: 390, height: 900 });
    await page.goto(`${seeded.portalUrl}admin/subscriptions`);
    await page
      .getByRole('button', { name: 'Rotate primary key of invoice-agent development' })
      .click();
    await page
      .locator('h1', { hasText: 'Rotate the primary key of invoice-agent (development)?' })
      .waitFor();
    assert.ok((await overflowOf(page)).excess <= 0);
    await page.getByRole('link', { name: 'Cancel' }).click();
    await page.waitForURL(/\/portal\/admin\/subscriptions$/);
  });
});
