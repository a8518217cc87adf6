// The Python MCP SDK for end-to-end tests: a virtual environment of this checkout's own
// (node_modules/.cache), with `mcp` installed from the machine's package index once.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A virtual environment with the Python SDK, made once per checkout; the reason when there is no Python. */
export function pythonWithMcp(): { python: string } | { skip: string } {
  const probe = spawnSync('python3', ['--version'], { encoding: 'utf8' });
  if (probe.error !== undefined || probe.status !== 0)
    return { skip: 'python3 is not installed on this machine (needed for the Python MCP SDK)' };
  const venv = join(process.cwd(), 'node_modules', '.cache', 'toolgate-python-mcp');
  const python = join(venv, 'bin', 'python');
  const ready = join(venv, '.mcp-installed');
  if (existsSync(ready)) return { python };
  mkdirSync(join(venv, '..'), { recursive: true });
  const made = spawnSync('python3', ['-m', 'venv', '--clear', venv], { encoding: 'utf8' });
  if (made.status !== 0)
    return { skip: `python3 -m venv failed (the venv module is missing?): ${made.stderr.trim()}` };
  // --retries 0: an index this machine cannot reach fails at once instead of backing off for minutes.
  const installed = spawnSync(
    join(venv, 'bin', 'pip'),
    ['install', '--disable-pip-version-check', '--retries', '0', '--timeout', '20', 'mcp==2.3.0'],
    { encoding: 'utf8', timeout: 110_000 },
  );
  assert.equal(installed.status, 0, `pip install mcp failed:\n${installed.stderr.slice(-2000)}`);
  writeFileSync(ready, 'mcp==2.3.0\n');
  return { python };
}
