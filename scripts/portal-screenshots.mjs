#!/usr/bin/env node
// Makes the screenshots in docs/portal/ again: a seeded `toolgate start` (test/helpers/portal-tour.ts:
// applications in every state, real MCP calls recorded as usage, audited changes), Debian chromium
// (/usr/bin/chromium) through playwright-core, every portal page at 1,280 px (full page) and the main ones
// at 390 px too. Build first: `npx tsc -p tsconfig.json && node scripts/portal-screenshots.mjs`.
// The identity-provider pair (a second identity provider) and the catalogue's tool and Try-it pages (a
// developer's own key) come from the browser suite: run it first with TOOLGATE_PORTAL_SCREENSHOTS=1
// (node scripts/run-tests.mjs test/e2e/portal-browser), then this script, which replaces the rest.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const root = process.cwd();
const dist = join(root, 'dist', 'test', 'helpers');
if (!existsSync(join(dist, 'portal-tour.js'))) {
  console.error('dist/ is missing: run `npx tsc -p tsconfig.json` first.');
  process.exit(2);
}
const { CHROMIUM, chromiumArgs, freshProfile } = await import(join(dist, 'chromium.js'));
const { TOUR_PAGES, pathOf, signInAdmin, startSeededPortal } = await import(
  join(dist, 'portal-tour.js')
);
if (!existsSync(CHROMIUM)) {
  console.error(`${CHROMIUM} is absent: apt-get install -y chromium`);
  process.exit(2);
}

const out = join(root, 'docs', 'portal');
mkdirSync(out, { recursive: true });
/** Also at 390 px (a phone): file name with -390. */
const NARROW = new Set(['admin-subscriptions', 'audit-log', 'usage', 'admin-tools']);

const seeded = await startSeededPortal();
const context = await chromium.launchPersistentContext(freshProfile(), {
  executablePath: CHROMIUM,
  args: chromiumArgs(),
  headless: true,
  viewport: { width: 1280, height: 800 },
});
try {
  context.setDefaultTimeout(15000);
  const page = context.pages()[0] ?? (await context.newPage());
  // The audit log grows with every seeded change: its first 2,000 px tell the story.
  const shot = async (name) => {
    const { width } = page.viewportSize();
    await page.screenshot({
      path: join(out, `${name}.png`),
      fullPage: true,
      ...(name.startsWith('audit-log') ? { clip: { x: 0, y: 0, width, height: 2000 } } : {}),
    });
    console.log(`docs/portal/${name}.png`);
  };
  await page.goto(`${seeded.portalUrl}sign-in`);
  await shot('sign-in');
  await signInAdmin(page, seeded);
  for (const tour of TOUR_PAGES.filter((t) => t.photo !== false)) {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(pathOf(tour, seeded));
    if (tour.name === 'usage')
      await page
        .locator('details.numbers')
        .first()
        .evaluate((d) => (d.open = true));
    await shot(tour.name);
    if (NARROW.has(tour.name)) {
      await page.setViewportSize({ width: 390, height: 800 });
      await shot(`${tour.name}-390`);
    }
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  // The request form's errors next to their fields.
  await page.goto(`${seeded.portalUrl}request`);
  await page.getByRole('button', { name: 'Request access' }).click();
  await page.locator('#f-application-error').waitFor();
  await shot('request-access-errors');
  // Keys shown once (an approved request of the admin's own, collected in the portal).
  await page.goto(`${seeded.portalUrl}applications`);
  await page.getByRole('button', { name: `Collect keys for ${seeded.uncollected}` }).click();
  await page.locator('h1', { hasText: 'Your keys' }).waitFor();
  await shot('keys-once');
} finally {
  await context.close();
  await seeded.close();
}
