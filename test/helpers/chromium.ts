// Debian's chromium for the browser tests: found at /usr/bin/chromium, or installed with apt-get when
// running as root with apt available (bounded in time). When it is still absent, the caller skips its
// suite with the reason this returns, so a skipped run says why.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureDebianBinary, type BinaryAvailability } from './debian-package.js';

export const CHROMIUM = '/usr/bin/chromium';

export type ChromiumAvailability = BinaryAvailability;

export function ensureChromium(): ChromiumAvailability {
  return ensureDebianBinary(CHROMIUM, 'chromium');
}

/**
 * The launch flags of the browser tests. Playwright takes the profile folder (--user-data-dir) as the
 * first argument of launchPersistentContext: pass it a fresh one from freshProfile().
 */
export function chromiumArgs(): string[] {
  return [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ];
}

/** A fresh, empty profile folder (--user-data-dir) per browser. */
export function freshProfile(): string {
  return mkdtempSync(join(tmpdir(), 'toolgate-chromium-'));
}

/**
 * How long one browser action (click, navigation, wait) may wait before failing. Generous on purpose: a
 * loaded 2-core CI machine renders slowly, and the bound only decides when a hung page is reported, never
 * what the test asserts.
 */
export const BROWSER_ACTION_TIMEOUT_MS = 45_000;
