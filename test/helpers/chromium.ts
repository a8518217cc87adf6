// Debian's chromium for the browser tests: found at /usr/bin/chromium, or installed with apt-get when
// running as root with apt available (bounded in time). When it is still absent, the caller skips its
// suite with the reason this returns, so a skipped run says why.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const CHROMIUM = '/usr/bin/chromium';
const INSTALL_TIMEOUT_MS = 10 * 60_000;

export type ChromiumAvailability = { readonly path: string } | { readonly skip: string };

export function ensureChromium(): ChromiumAvailability {
  if (existsSync(CHROMIUM)) return { path: CHROMIUM };
  if (process.platform !== 'linux' || process.getuid?.() !== 0)
    return {
      skip: `${CHROMIUM} is absent and the tests do not run as root to install it (apt-get install -y chromium)`,
    };
  if (!existsSync('/usr/bin/apt-get'))
    return { skip: `${CHROMIUM} is absent and apt-get is not available to install it` };
  console.log('# installing Debian chromium for the browser tests (apt-get install -y chromium)…');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const install = () =>
    spawnSync('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], {
      env,
      stdio: 'ignore',
      timeout: INSTALL_TIMEOUT_MS,
    });
  let result = install();
  if (result.status !== 0) {
    spawnSync('apt-get', ['update'], { env, stdio: 'ignore', timeout: INSTALL_TIMEOUT_MS });
    result = install();
  }
  if (existsSync(CHROMIUM)) return { path: CHROMIUM };
  return {
    skip: `${CHROMIUM} is absent: apt-get install -y chromium ${
      result.error ? `failed (${result.error.message})` : `exited with ${String(result.status)}`
    }`,
  };
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
