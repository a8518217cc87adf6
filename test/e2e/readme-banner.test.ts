// Issue 27, traps 1, 7 and 8: what `npm start` prints is what the README shows (the same lines, the
// admin and portal lines included; only ports, secrets, the token's date and the data folder differ),
// the first screen carries no third-party runtime warning, and both printed blocks work as the README
// says — the key-only one for public tools without any token.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finished, spawnCli } from '../helpers/process.js';

/** The README's banner sample: the first fenced block after "It then prints, on stderr". */
function readmeBanner(): string {
  const readme = readFileSync(join(process.cwd(), 'README.md'), 'utf8');
  const at = readme.indexOf('prints, on stderr');
  assert.ok(at > 0, 'the README introduces the banner');
  const open = readme.indexOf('```\n', at);
  const close = readme.indexOf('\n```', open + 4);
  return readme.slice(open + 4, close);
}

function normalise(text: string, ports: Record<string, string>, dataDir: string): string {
  let out = text;
  for (const [port, standard] of Object.entries(ports))
    out = out.replaceAll(`127.0.0.1:${port}/`, `127.0.0.1:${standard}/`);
  return out
    .replaceAll(`${dataDir}/`, 'data/')
    .replace(/tga_[A-Za-z0-9_-]+/g, 'tga_…')
    .replace(/tgk_[A-Za-z0-9]+/g, 'tgk_…')
    .replace(/eyJ[A-Za-z0-9_.-]+/g, 'eyJhbGciOiJFUzI1NiIs…')
    .replace(/\d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d UTC/g, '<date>');
}

async function rpc(url: string, headers: Record<string, string>, method: string, params?: unknown) {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'mcp-protocol-version': '2025-06-18',
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, ...(params ? { params } : {}) }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON-RPC bodies of several shapes
}

test('issue 27 trap 8: the README banner sample is what toolgate start prints; trap 7: no runtime warning; trap 1: both blocks work', async () => {
  const scratch = mkdtempSync(join(tmpdir(), 'toolgate-readme-banner-'));
  const dataDir = join(scratch, 'data');
  const child = spawnCli(['start'], {
    TOOLGATE_DATA_DIR: dataDir,
    TOOLGATE_GATEWAY_PORT: '0',
    TOOLGATE_PAYMENTS_PORT: '0',
    TOOLGATE_ADMIN_PORT: '0',
  });
  try {
    await new Promise<void>((resolve, reject) => {
      const check = () => {
        if (child.output.stderr.includes('Press Ctrl+C to stop.')) resolve();
      };
      child.stderr?.on('data', check);
      child.on('exit', () => reject(new Error(`exited: ${child.output.stderr}`)));
      check();
    });
    const printed = child.output.stderr;
    const port = (label: string): string => {
      const match = new RegExp(`${label}\\s+http://127\\.0\\.0\\.1:(\\d+)/`).exec(printed);
      assert.ok(match?.[1] !== undefined, `${label} in ${printed}`);
      return match[1];
    };
    const ports = {
      [port('MCP endpoint:')]: '8080',
      [port('Payments health:')]: '8081',
      [port('Admin API:')]: '8082',
    };
    const sample = readmeBanner().replace(/\d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d UTC/g, '<date>');
    assert.equal(normalise(printed, ports, dataDir).trim(), sample.trim());

    // Trap 7: the first screen (stderr and stdout) has no "Unsupported runtime" warning from a library.
    assert.doesNotMatch(printed, /WARNING/);
    assert.doesNotMatch(child.output.stdout, /oidc-provider WARNING/);

    // Trap 1: the two printed blocks, as a client sends them.
    const blocks = [...printed.matchAll(/^\{\n[\s\S]*?\n\}$/gm)].map(
      (m) =>
        (
          JSON.parse(m[0]) as {
            mcpServers: { toolgate: { url: string; headers: Record<string, string> } };
          }
        ).mcpServers.toolgate,
    );
    assert.equal(blocks.length, 2);
    const [withToken, keyOnly] = blocks;
    assert.ok(withToken !== undefined && keyOnly !== undefined);
    assert.equal(keyOnly.headers.Authorization, undefined, 'the second block has no token');
    const publicCall = await rpc(keyOnly.url, keyOnly.headers, 'tools/call', {
      name: 'fetchBankDetails',
      arguments: {
        body: { identificationNumber: '011085645', identificationType: 'ROUTING_NUMBER' },
      },
    });
    assert.equal(publicCall.status, 200);
    assert.equal(publicCall.body.result.isError, undefined, JSON.stringify(publicCall.body));
    const userCall = await rpc(withToken.url, withToken.headers, 'tools/call', {
      name: 'getMyAccountBalance',
      arguments: {},
    });
    assert.equal(userCall.status, 200);
    assert.ok(Array.isArray(userCall.body.result.structuredContent.items));
  } finally {
    child.kill('SIGTERM');
    const result = await finished(child, 30_000);
    assert.equal(result.code, 0, result.stderr);
  }
});
