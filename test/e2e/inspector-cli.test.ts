// The `mcpServers` block that `toolgate start` prints works unchanged in the MCP Inspector's command-line
// client (the README's command): `--cli --config <file> --server toolgate` lists the tools and calls one
// as the printed user. The Inspector needs Node >= 22.19, so it runs as the npm `node@22` package next to
// the Inspector package (npx), whatever Node runs this suite. Without `"type": "http"` in the entry, the
// Inspector takes it for a local stdio server and fails with `The "file" argument must be of type
// string`, which is why the printed entry carries the type.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finished, spawnCli, waitForSummary } from '../helpers/process.js';
import { inspector } from '../helpers/inspector.js';

test('MCP Inspector CLI (Node 22) with the printed mcpServers block: tools/list and tools/call in the legacy, modern and auto eras', async () => {
  const scratch = mkdtempSync(join(tmpdir(), 'toolgate-inspector-'));
  const child = spawnCli(['start', '--json'], {
    TOOLGATE_DATA_DIR: join(scratch, 'data'),
    TOOLGATE_GATEWAY_PORT: '0',
    TOOLGATE_PAYMENTS_PORT: '0',
  });
  try {
    const summary = (await waitForSummary(child)) as unknown as {
      clientConfig: { mcpServers: { toolgate: { type: string } } };
    };
    assert.equal(summary.clientConfig.mcpServers.toolgate.type, 'http');
    // The block exactly as printed, saved to a file as a user would.
    const configFile = join(scratch, 'mcp.json');
    writeFileSync(configFile, JSON.stringify(summary.clientConfig, null, 2));

    const list = await inspector(configFile, ['--method', 'tools/list'], scratch);
    assert.equal(list.code, 0, `tools/list failed: ${list.stderr.slice(-2000)}`);
    const names = (JSON.parse(list.stdout) as { tools: { name: string }[] }).tools
      .map((t) => t.name)
      .sort();
    assert.ok(
      names.includes('getMyAccountBalance') && names.includes('fetchBankDetails'),
      names.join(),
    );
    assert.equal(names.length, 11);

    // A user-scoped tool: the printed Authorization header carries the sample user through the gateway.
    const call = await inspector(
      configFile,
      ['--method', 'tools/call', '--tool-name', 'getMyAccountBalance'],
      scratch,
    );
    assert.equal(call.code, 0, `tools/call failed: ${call.stderr.slice(-2000)}`);
    const result = JSON.parse(call.stdout) as {
      isError?: boolean;
      structuredContent: { items: { accountId: string; currency: string }[] };
    };
    assert.notEqual(result.isError, true, call.stdout);
    assert.ok(result.structuredContent.items.length > 0, call.stdout);
    assert.match(result.structuredContent.items[0]?.accountId ?? '', /^[A-Z]{2}\d{2}/);

    // The modern era (2026-07-28, server/discover, list results with ttlMs and cacheScope) and the
    // automatic one, which probes server/discover first: the listing, a public call and a user-scoped call.
    for (const era of ['modern', 'auto']) {
      const eraList = await inspector(
        configFile,
        ['--protocol-era', era, '--method', 'tools/list'],
        scratch,
      );
      assert.equal(eraList.code, 0, `${era} tools/list failed: ${eraList.stderr.slice(-2000)}`);
      assert.equal((JSON.parse(eraList.stdout) as { tools: unknown[] }).tools.length, 11, era);
      const bank = await inspector(
        configFile,
        [
          '--protocol-era',
          era,
          '--method',
          'tools/call',
          '--tool-name',
          'fetchBankDetails',
          '--tool-args-json',
          JSON.stringify({
            body: { identificationNumber: '011085645', identificationType: 'ROUTING_NUMBER' },
          }),
        ],
        scratch,
      );
      assert.equal(bank.code, 0, `${era} public tools/call failed: ${bank.stderr.slice(-2000)}`);
      const bankResult = JSON.parse(bank.stdout) as {
        isError?: boolean;
        structuredContent: { bankCode: string };
      };
      assert.notEqual(bankResult.isError, true, bank.stdout);
      assert.equal(bankResult.structuredContent.bankCode, '011085645');
    }
    const modernCall = await inspector(
      configFile,
      ['--protocol-era', 'modern', '--method', 'tools/call', '--tool-name', 'getMyAccountBalance'],
      scratch,
    );
    assert.equal(modernCall.code, 0, `modern user-scoped call: ${modernCall.stderr.slice(-2000)}`);
    assert.ok(
      (JSON.parse(modernCall.stdout) as { structuredContent: { items: unknown[] } })
        .structuredContent.items.length > 0,
    );
  } finally {
    child.kill('SIGTERM');
    const stopped = await finished(child, 15000);
    assert.equal(stopped.code, 0, stopped.stderr.slice(-500));
  }
});
