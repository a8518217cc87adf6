// `toolgate start` as a newcomer runs it: both services answer; the printed key, token and client
// configuration work end to end through the MCP endpoint (getPaymentHistory included); nobody reaches the
// payment service as another user; no key or token appears in the logs; SIGTERM stops everything with exit code 0.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rpc } from '../helpers/mcp-http.js';
import { finished, spawnCli, waitForSummary } from '../helpers/process.js';

interface Summary {
  gatewayUrl: string;
  paymentsUrl: string;
  mcpUrl: string;
  subscriptionKey: string;
  sampleToken: string;
  adminApi: string;
  adminToken: string;
  clientConfig: {
    mcpServers: { toolgate: { type: string; url: string; headers: Record<string, string> } };
  };
}

test('start: the demo key, token and mcpServers block work end to end; SIGTERM exits 0', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'toolgate-start-'));
  const child = spawnCli(['start', '--json'], {
    TOOLGATE_DATA_DIR: dataDir,
    TOOLGATE_GATEWAY_PORT: '0',
    TOOLGATE_PAYMENTS_PORT: '0',
    TOOLGATE_LOG_LEVEL: 'debug',
  });
  let summary: Summary | undefined;
  try {
    summary = (await waitForSummary(child)) as unknown as Summary;
    // The admin plane runs beside them; its bootstrap token is printed and works.
    const me = await fetch(`${summary.adminApi}/me`, {
      headers: { authorization: `Bearer ${summary.adminToken}` },
    });
    assert.equal(me.status, 200);
    assert.equal(((await me.json()) as { role: string }).role, 'admin');
    for (const base of [summary.gatewayUrl, summary.paymentsUrl]) {
      assert.equal((await fetch(`${base}/healthz`)).status, 200);
      const ready = await fetch(`${base}/readyz`);
      assert.equal(ready.status, 200);
      assert.equal(((await ready.json()) as { status: string }).status, 'ready');
    }
    assert.match(
      summary.mcpUrl,
      /^http:\/\/127\.0\.0\.1:[1-9][0-9]*\/mcp$/,
      'port 0 reports the bound port',
    );
    const gatewayPort = Number(new URL(summary.mcpUrl).port);
    assert.ok(existsSync(join(dataDir, 'gateway.db')) && existsSync(join(dataDir, 'payments.db')));
    assert.equal(
      statSync(join(dataDir, 'demo-secrets.json')).mode & 0o077,
      0,
      'demo secrets are private to the owner',
    );

    const client = summary.clientConfig.mcpServers.toolgate;
    assert.equal(
      client.type,
      'http',
      'clients need the transport type (Inspector, Claude Code, VS Code)',
    );
    assert.equal(client.url, summary.mcpUrl);
    assert.equal(client.headers['Ocp-Apim-Subscription-Key'], summary.subscriptionKey);
    assert.equal(client.headers.Authorization, `Bearer ${summary.sampleToken}`);

    // No key: 401 with a JSON-RPC error body.
    const noKey = await rpc(summary.mcpUrl, {}, 'tools/list');
    assert.equal(noKey.status, 401);
    assert.equal(noKey.body.error.code, -31001);

    // The key alone lists every payment tool.
    const keyOnly = { 'Ocp-Apim-Subscription-Key': summary.subscriptionKey };
    const list = await rpc(summary.mcpUrl, keyOnly, 'tools/list');
    assert.equal(list.status, 200);
    const names = (list.body.result.tools as { name: string }[]).map((t) => t.name).sort();
    assert.deepEqual(names, [
      'cancelPayment',
      'createPayment',
      'fetchBankDetails',
      'fetchPaymentFees',
      'getMyAccountBalance',
      'getMyTransactionHistory',
      'getPayment',
      'getPaymentHistory',
      'listPayments',
      'updatePayment',
      'validatePayment',
    ]);
    assert.match(
      list.headers.get('ratelimit-policy') ?? '',
      /"ip";q=50;w=60/,
      'anonymous callers are limited per IP',
    );

    // A user-scoped tool without a token: 401 before the backend is reached.
    const anonymous = await rpc(summary.mcpUrl, keyOnly, 'tools/call', {
      name: 'getMyAccountBalance',
      arguments: {},
    });
    assert.equal(anonymous.status, 401);
    assert.match(anonymous.headers.get('www-authenticate') ?? '', /^Bearer resource_metadata="/);

    // With the printed client headers: the user's own data, and the user's own payment.
    const user = client.headers;
    const balance = await rpc(summary.mcpUrl, user, 'tools/call', {
      name: 'getMyAccountBalance',
      arguments: {},
    });
    assert.equal(balance.status, 200);
    assert.equal(balance.body.result.isError, undefined, JSON.stringify(balance.body));
    assert.ok(Array.isArray(balance.body.result.structuredContent.items));
    assert.match(balance.headers.get('ratelimit-policy') ?? '', /"user";q=500;w=60/);
    const created = await rpc(summary.mcpUrl, user, 'tools/call', {
      name: 'createPayment',
      arguments: {
        body: {
          // The payer account must be alice's own (the accounts API knows her now).
          payerAccountReference: {
            paymentInstructionAccount: {
              accountId: balance.body.result.structuredContent.items[0].accountId as string,
            },
          },
          payeeReference: { involvedParty: { partyName: 'Ada Lovelace' } },
          payeeAccountReference: {
            paymentInstructionAccount: { accountId: 'GB29NWBK60161331926819' },
          },
          paymentInstruction: { amount: { instructedAmount: 12.5, instructedCurrency: 'EUR' } },
        },
      },
    });
    assert.equal(created.body.result.isError, undefined, JSON.stringify(created.body));
    const paymentId = created.body.result.structuredContent.paymentInstructionReference
      .identification as string;

    // Another user cannot see it, and nobody can claim to be alice by calling the payment service directly.
    const bob = (await spawnToken(dataDir, gatewayPort, 'bob')).trim();
    const asBob = await rpc(
      summary.mcpUrl,
      { ...keyOnly, Authorization: `Bearer ${bob}` },
      'tools/call',
      {
        name: 'getPayment',
        arguments: { externalReferenceNo: paymentId },
      },
    );
    assert.equal(asBob.body.result.isError, true);
    assert.match(asBob.body.result.content[0].text, /404/);

    // The payment's history through the getPaymentHistory tool: alice sees her creation, bob a 404.
    const history = await rpc(summary.mcpUrl, user, 'tools/call', {
      name: 'getPaymentHistory',
      arguments: { externalReferenceNo: paymentId },
    });
    assert.equal(history.body.result.isError, undefined, JSON.stringify(history.body));
    const entries = history.body.result.structuredContent.items as Record<string, unknown>[];
    // Newest first; the execution engine (on by default) may already have moved the payment on.
    const created1 = entries.at(-1);
    assert.deepEqual(
      [created1?.['kind'], created1?.['toStatus'], created1?.['version']],
      ['CREATED', 'INITIATED', 1],
    );
    assert.match(String(created1?.['actor']), /^user:/);
    const historyAsBob = await rpc(
      summary.mcpUrl,
      { ...keyOnly, Authorization: `Bearer ${bob}` },
      'tools/call',
      { name: 'getPaymentHistory', arguments: { externalReferenceNo: paymentId } },
    );
    assert.equal(historyAsBob.body.result.isError, true);
    assert.match(historyAsBob.body.result.content[0].text, /404/);
    const direct = await fetch(
      `${summary.paymentsUrl}/payments/payment-order/v1/payments/${paymentId}`,
      {
        headers: { 'x-user-id': 'alice' },
      },
    );
    assert.equal(
      direct.status,
      401,
      'a spoofed identity header without the gateway secret is refused',
    );
  } finally {
    child.kill('SIGTERM');
    const result = await finished(child, 10000);
    assert.equal(result.code, 0, `exit code 0 after SIGTERM; stderr: ${result.stderr.slice(-500)}`);
    if (summary) {
      // The whole run's log output (stdout, debug level) holds no key or token.
      assert.ok(result.stdout.length > 1000, 'the run logged');
      assert.equal(
        result.stdout.includes(summary.subscriptionKey),
        false,
        'subscription key in logs',
      );
      assert.equal(result.stdout.includes(summary.sampleToken), false, 'token in logs');
      assert.equal(result.stdout.includes(summary.adminToken), false, 'admin token in logs');
      assert.equal(
        result.stdout.includes(summary.sampleToken.slice(0, 30)),
        false,
        'token prefix in logs',
      );
    }
  }
});

async function spawnToken(dataDir: string, gatewayPort: number, sub: string): Promise<string> {
  const token = spawnCli(['token', '--sub', sub], {
    TOOLGATE_DATA_DIR: dataDir,
    TOOLGATE_GATEWAY_PORT: String(gatewayPort),
  });
  const result = await finished(token, 15000);
  assert.equal(result.code, 0, result.stderr);
  return result.stdout;
}
