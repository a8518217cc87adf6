// Debian packages that some suites need (chromium, haproxy, prometheus's promtool): found at their binary's
// path, or installed with apt-get when running as root with apt available (bounded in time). When one is
// still absent, the caller skips its suite with the reason this returns, so a skipped run says why.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const INSTALL_TIMEOUT_MS = 10 * 60_000;

export type BinaryAvailability = { readonly path: string } | { readonly skip: string };

/** `binary` (an absolute path) from Debian package `pkg`: present, installed now, or a reason to skip. */
export function ensureDebianBinary(binary: string, pkg: string): BinaryAvailability {
  if (existsSync(binary)) return { path: binary };
  if (process.platform !== 'linux' || process.getuid?.() !== 0)
    return {
      skip: `${binary} is absent and the tests do not run as root to install it (apt-get install -y ${pkg})`,
    };
  if (!existsSync('/usr/bin/apt-get'))
    return { skip: `${binary} is absent and apt-get is not available to install it` };
  console.log(`# installing Debian ${pkg} for the tests that need it (apt-get install -y ${pkg})…`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const install = () =>
    spawnSync('apt-get', ['install', '-y', '--no-install-recommends', pkg], {
      env,
      stdio: 'ignore',
      timeout: INSTALL_TIMEOUT_MS,
    });
  let result = install();
  if (result.status !== 0) {
    spawnSync('apt-get', ['update'], { env, stdio: 'ignore', timeout: INSTALL_TIMEOUT_MS });
    result = install();
  }
  if (existsSync(binary)) return { path: binary };
  return {
    skip: `${binary} is absent: apt-get install -y ${pkg} ${
      result.error ? `failed (${result.error.message})` : `exited with ${String(result.status)}`
    }`,
  };
}
