// The clients people use, against `toolgate start` as a user runs it (both services, the printed client
// configuration: URL, subscription key and the sample user's token). Each client negotiates on its own,
// lists the tools and calls a public tool (fetchBankDetails) and a user-scoped one (getMyAccountBalance):
//   - the TypeScript SDK v2 client packages (@modelcontextprotocol/client) with versionNegotiation 'auto':
//     it probes server/discover and speaks 2026-07-28, whose list results must carry ttlMs and cacheScope;
//   - the Python `mcp` SDK in its default mode (also 'auto'), installed into a virtual environment of this
//     repository's own (node_modules/.cache) from the machine's package index.
// The TypeScript SDK 1.x and the MCP Inspector have their own files (mcp-sdk-client, inspector-cli).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { demoForFile } from '../helpers/process.js';
import { pythonWithMcp } from '../helpers/python.js';

const PUBLIC_ARGS = {
  body: { identificationNumber: '011085645', identificationType: 'ROUTING_NUMBER' },
};

const demo = demoForFile('toolgate-clients-');

test('TypeScript SDK v2 (versionNegotiation auto): 2026-07-28, tools/list, a public and a user-scoped tools/call', async () => {
  const client = new Client(
    { name: 'toolgate-e2e', version: '1.0.0' },
    { versionNegotiation: { mode: 'auto' } },
  );
  const transport = new StreamableHTTPClientTransport(new URL(demo.printed.url), {
    requestInit: { headers: demo.printed.headers },
  });
  await client.connect(transport);
  try {
    assert.equal(client.getNegotiatedProtocolVersion(), '2026-07-28');
    // The SDK validates the listing against the 2026-07-28 schema (ttlMs and cacheScope required).
    const { tools } = await client.listTools();
    assert.equal(tools.length, 11);
    assert.ok(tools.some((t) => t.name === 'getMyAccountBalance'));

    const bank = await client.callTool({ name: 'fetchBankDetails', arguments: PUBLIC_ARGS });
    assert.notEqual(bank.isError, true, JSON.stringify(bank.content));
    assert.equal((bank.structuredContent as { bankCode: string }).bankCode, '011085645');

    const balance = await client.callTool({ name: 'getMyAccountBalance', arguments: {} });
    assert.notEqual(balance.isError, true, JSON.stringify(balance.content));
    const items = (balance.structuredContent as { items: { accountId: string }[] }).items;
    assert.ok(items.length > 0);
    assert.match(items[0]?.accountId ?? '', /^[A-Z]{2}\d{2}/);
  } finally {
    await client.close();
  }
});

test('Python mcp SDK (default mode): 2026-07-28, tools/list, a public and a user-scoped tools/call', async (t) => {
  const found = pythonWithMcp();
  if ('skip' in found) {
    t.skip(found.skip);
    return;
  }
  const script = join(process.cwd(), 'test', 'e2e', 'python', 'toolgate_client.py');
  const run = spawnSync(
    found.python,
    [script, demo.printed.url, JSON.stringify(demo.printed.headers)],
    {
      encoding: 'utf8',
      timeout: 60_000,
    },
  );
  assert.equal(run.status, 0, `the Python client failed:\n${run.stderr.slice(-3000)}`);
  const out = JSON.parse(run.stdout) as {
    protocolVersion: string;
    tools: string[];
    public: { isError: boolean; structured: { bankCode: string } };
    userScoped: { isError: boolean; structured: { items: { accountId: string }[] } };
  };
  assert.equal(out.protocolVersion, '2026-07-28');
  assert.equal(out.tools.length, 11);
  assert.equal(out.public.isError, false);
  assert.equal(out.public.structured.bankCode, '011085645');
  assert.equal(out.userScoped.isError, false);
  assert.ok(out.userScoped.structured.items.length > 0);
});
