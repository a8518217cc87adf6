// The documented example of adding a third-party OpenAPI backend (examples/petstore/toolgate.yaml,
// docs/configuration.md "Adding a third-party backend"), against a real mock server: Prism serves
// examples/petstore/petstore.yaml and refuses any request without the store's key or, for the customer's
// own orders, without a bearer token. `toolgate start` with that configuration keeps the demo wiring for
// the shipped payment backends (key, token, client block; public and user-scoped payment tools work),
// adds the store's key to every call to the store (agents never see it), and passes the customer's
// verified token on (identity mode passthrough). Prism needs Node >= 24.18: it runs as the npm
// `node@24` package next to the Prism package (npx), whatever Node runs this suite.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rpc } from '../helpers/mcp-http.js';
import { finished, spawnCli, waitForSummary } from '../helpers/process.js';

const PRISM = '@stoplight/prism-cli@5.16.0';
const DOCUMENT = join(process.cwd(), 'examples', 'petstore', 'petstore.yaml');
const CONFIG = join('examples', 'petstore', 'toolgate.yaml');

/** Prism's mock server on a port of its own choosing (port 0), and its address read from its log. */
function startPrism(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(
    'npx',
    [
      '-y',
      '-p',
      'node@24',
      '-p',
      PRISM,
      '--',
      'prism',
      'mock',
      DOCUMENT,
      '-h',
      '127.0.0.1',
      '-p',
      '0',
    ],
    { detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let log = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Prism did not start: ${log}`)), 240_000);
    const onData = (d: Buffer) => {
      log += d.toString();
      const match = /Prism is listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(log);
      if (match?.[1] !== undefined) {
        clearTimeout(timer);
        resolve({ url: match[1], child });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Prism exited (${code}): ${log}`));
    });
  });
}

/** npx runs Prism in a child process of its own: stop the whole group. */
function stopPrism(child: ChildProcess): void {
  if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, 'SIGTERM');
}

interface Summary {
  mcpUrl: string;
  subscriptionKey?: string;
  sampleToken?: string;
  demoWiring?: string;
  clientConfig?: { mcpServers: { toolgate: { headers: Record<string, string> } } };
}

test('a third-party backend next to the payment service: demo wiring kept, store key injected, customer token passed on', async () => {
  const prism = await startPrism();
  const storeKey = 'psk_example_partner_key_1234';
  let gateway: ReturnType<typeof spawnCli> | undefined;
  try {
    // The mock really refuses a call without the store's key: what injectHeaders is for.
    const bare = await fetch(`${prism.url}/pets`);
    assert.equal(bare.status, 401);

    gateway = spawnCli(['start', '--json', '--config', CONFIG], {
      TOOLGATE_DATA_DIR: mkdtempSync(join(tmpdir(), 'toolgate-petstore-')),
      TOOLGATE_GATEWAY_PORT: '0',
      TOOLGATE_PAYMENTS_PORT: '0',
      PETSTORE_URL: prism.url,
      PETSTORE_KEY: storeKey,
    });
    const summary = (await waitForSummary(gateway)) as unknown as Summary;
    assert.equal(summary.demoWiring, undefined, 'the demo wiring applies');
    assert.ok(summary.subscriptionKey && summary.sampleToken && summary.clientConfig);
    const keyOnly = { 'Ocp-Apim-Subscription-Key': summary.subscriptionKey };
    const user = summary.clientConfig.mcpServers.toolgate.headers;

    const list = await rpc(summary.mcpUrl, keyOnly, 'tools/list');
    assert.equal(list.status, 200);
    const tools = list.body.result.tools as { name: string; inputSchema: unknown }[];
    const names = tools.map((t) => t.name);
    for (const name of [
      'listPets',
      'showPetById',
      'listMyOrders',
      'createPayment',
      'fetchBankDetails',
    ])
      assert.ok(names.includes(name), `${name} listed`);
    assert.equal(
      JSON.stringify(tools).toLowerCase().includes('x-store-key'),
      false,
      'the injected credential is not part of any tool',
    );

    // The shipped backends are wired as without the extra backend: the bank directory's key is sent
    // (no API_KEY_MISSING from the payment service) and the user's identity is trusted.
    const bank = await rpc(summary.mcpUrl, keyOnly, 'tools/call', {
      name: 'fetchBankDetails',
      arguments: { body: { iban: 'DE89370400440532013000' } },
    });
    assert.equal(bank.status, 200);
    assert.equal(JSON.stringify(bank.body).includes('API_KEY'), false, JSON.stringify(bank.body));
    const balance = await rpc(summary.mcpUrl, user, 'tools/call', {
      name: 'getMyAccountBalance',
      arguments: {},
    });
    assert.equal(balance.body.result.isError, undefined, JSON.stringify(balance.body));

    // The store's public operation, with its key added by the gateway.
    const pets = await rpc(summary.mcpUrl, keyOnly, 'tools/call', {
      name: 'listPets',
      arguments: { species: 'dog' },
    });
    assert.equal(pets.body.result.isError, undefined, JSON.stringify(pets.body));
    // A JSON array answer comes back as text (structuredContent must be an object).
    const petsText = (pets.body.result.content as { text: string }[])[0]?.text ?? '';
    assert.deepEqual(
      (JSON.parse(petsText) as { name: string }[]).map((p) => p.name),
      ['Rex', 'Tom'],
      'the example answer of the mock',
    );

    // The customer's own orders: refused by the gateway without a token, served with one.
    const anonymous = await rpc(summary.mcpUrl, keyOnly, 'tools/call', {
      name: 'listMyOrders',
      arguments: {},
    });
    assert.equal(anonymous.status, 401);
    const orders = await rpc(summary.mcpUrl, user, 'tools/call', {
      name: 'listMyOrders',
      arguments: {},
    });
    assert.equal(orders.body.result.isError, undefined, JSON.stringify(orders.body));
    assert.ok(
      JSON.stringify(orders.body.result).includes('ord_a1b2c3'),
      JSON.stringify(orders.body),
    );
  } finally {
    if (gateway) {
      gateway.kill('SIGTERM');
      const stopped = await finished(gateway, 15000);
      assert.equal(stopped.code, 0, stopped.stderr.slice(-500));
    }
    stopPrism(prism.child);
  }
});
