// Issue 28, "Tests with servers no one here wrote": `toolgate start` as a user runs it (the payment service
// and its two OpenAPI backends, the demo key and token) federating three upstream MCP servers behind the same
// keys — `@modelcontextprotocol/server-everything` (Streamable HTTP, sessions, SSE answers) as `everything`,
// a Python FastMCP server (the `mcp` package) as `python`, and a TypeScript SDK server whose list changes
// mid-run as `live` — listed and called through the gateway by the TypeScript SDK v2 client
// (@modelcontextprotocol/client, both protocol eras) and the Python SDK client; "an upstream that changes
// its list mid-run; one killed mid-call". The upstreams are real servers on real sockets and the gateway is
// a separate process: what a client sees is only what crossed the network.
import { before, after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as z from 'zod';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { finished, spawnCli, waitForSummary, type PrintedServer } from '../helpers/process.js';
import { pythonWithMcp } from '../helpers/python.js';
import { startEverything, type Everything } from '../gateway/federation/support/everything.js';
import { startFastMcp, type FastMcp } from '../gateway/federation/support/fastmcp.js';
import {
  DEFAULT_TOOLS,
  startSdkUpstream,
  type FixtureTool,
  type SdkUpstream,
} from '../gateway/federation/support/sdk-upstream.js';

const BANK_ARGS = {
  body: { identificationNumber: '011085645', identificationType: 'ROUTING_NUMBER' },
};
/** server-everything's tools offered through the gateway (the others are not approved). */
const EVERYTHING_APPROVED = [
  'echo',
  'get-sum',
  'get-structured-content',
  'trigger-long-running-operation',
];
const STATIC = 'demo://resource/static/';

let everything: Everything;
let live: SdkUpstream;
let python: FastMcp | undefined;
let noPython: string | undefined;
let gateway: ReturnType<typeof spawnCli> | undefined;
/** The `mcpServers.toolgate` entry `toolgate start` printed: the MCP URL, the demo key and alice's token. */
let printed: PrintedServer;

function configFile(scratch: string): string {
  const upstream = (name: string, mcp: Record<string, unknown>, approve: unknown) => ({
    name,
    mcp,
    identity: { mode: 'none' },
    approve,
  });
  const backends = [
    // The shipped payment documents: the demo wiring points them at the payment service started beside.
    {
      name: 'payments',
      baseUrl: 'http://127.0.0.1:8081/payments/payment-order/v1',
      openapi: { file: 'src/payments/openapi/payment-order.yaml' },
      approve: 'all',
    },
    {
      name: 'accounts',
      baseUrl: 'http://127.0.0.1:8081/accounts/v1',
      openapi: { file: 'src/payments/openapi/accounts.yaml' },
      approve: 'all',
    },
    upstream(
      'everything',
      {
        url: everything.url,
        securityClass: 'public',
        resources: { approve: [STATIC] },
        prompts: { approve: ['simple-prompt', 'args-prompt'] },
      },
      EVERYTHING_APPROVED,
    ),
    // A list kept an hour: the change below can reach tools/list only through the upstream's
    // notifications/tools/list_changed (issue 28: "refreshed on notifications/tools/list_changed").
    upstream('live', { url: live.url, listTtlMs: 3_600_000 }, 'all'),
    ...(python === undefined
      ? []
      : [
          upstream(
            'python',
            {
              url: python.url,
              securityClass: 'public',
              resources: { approve: ['note://'] },
              prompts: { approve: 'all' },
            },
            'all',
          ),
        ]),
  ];
  const path = join(scratch, 'toolgate.json');
  writeFileSync(path, JSON.stringify({ gateway: { backends } }));
  return path;
}

// The upstreams first (the gateway loads their tool lists at startup), then `toolgate start --json` as a
// user runs it: both services on free ports, the demo key and token printed.
before(async () => {
  const found = pythonWithMcp();
  if ('skip' in found) noPython = found.skip;
  [everything, live, python] = await Promise.all([
    startEverything(),
    startSdkUpstream({ name: 'live' }),
    'skip' in found ? Promise.resolve(undefined) : startFastMcp(found.python),
  ]);
  const scratch = mkdtempSync(join(tmpdir(), 'toolgate-federation-'));
  gateway = spawnCli(['start', '--json', '--config', configFile(scratch)], {
    TOOLGATE_DATA_DIR: join(scratch, 'data'),
    TOOLGATE_GATEWAY_PORT: '0',
    TOOLGATE_PAYMENTS_PORT: '0',
    TOOLGATE_LOG_LEVEL: 'warn',
  });
  const summary = (await waitForSummary(gateway)) as unknown as {
    clientConfig: { mcpServers: { toolgate: PrintedServer } };
  };
  printed = summary.clientConfig.mcpServers.toolgate;
});

after(async () => {
  try {
    if (gateway !== undefined) {
      gateway.kill('SIGTERM');
      const stopped = await finished(gateway, 15_000);
      assert.equal(stopped.code, 0, stopped.stderr.slice(-1000));
    }
  } finally {
    await Promise.allSettled([everything?.close(), live?.close(), python?.close()]);
  }
});

type Era = 'auto' | 'legacy';

/** Runs a Python script to its end (at most 90 s), without blocking this process. */
function runPython(
  python: string,
  args: readonly string[],
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(python, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.once('error', reject);
    child.once('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

async function connect(era: Era = 'auto'): Promise<Client> {
  const client = new Client(
    { name: 'toolgate-federation-e2e', version: '1.0.0' },
    { versionNegotiation: { mode: era } },
  );
  const transport = new StreamableHTTPClientTransport(new URL(printed.url), {
    requestInit: { headers: printed.headers },
  });
  await client.connect(transport);
  return client;
}

function text(result: { content?: unknown }): string {
  return ((result.content ?? []) as { type: string; text?: string }[])
    .filter((c) => c.type === 'text')
    .map((c) => c.text ?? '')
    .join('\n');
}

/** tools/list past the client's cache (2026-07-28 results carry ttlMs, which the v2 client honours). */
async function toolNames(client: Client): Promise<string[]> {
  const { tools } = await client.listTools(undefined, { cacheMode: 'refresh' });
  return tools.map((t) => t.name);
}

for (const era of ['auto', 'legacy'] as const) {
  test(`issue 28 "its tools join the catalogue under a per-backend prefix" (SDK v2, ${era}): tools/list shows the OpenAPI tools and the prefixed upstream tools, only the approved ones`, async () => {
    const client = await connect(era);
    try {
      assert.equal(
        client.getNegotiatedProtocolVersion(),
        era === 'auto' ? '2026-07-28' : '2025-11-25',
      );
      const { tools } = await client.listTools();
      const names = tools.map((t) => t.name);
      for (const name of [
        'createPayment',
        'fetchBankDetails',
        'getMyAccountBalance',
        ...EVERYTHING_APPROVED.map((n) => `everything_${n}`),
        'live_echo',
        'live_add',
        'live_slow',
        ...(python === undefined ? [] : ['python_shout', 'python_divide']),
      ])
        assert.ok(names.includes(name), `${name} is listed (${names.join(', ')})`);
      assert.equal(names.includes('everything_get-env'), false, 'not approved');
      assert.equal(names.includes('echo'), false, 'upstream names are always prefixed');
      // The upstream's own description and schemas, under the gateway's name.
      const echo = tools.find((t) => t.name === 'everything_echo');
      assert.equal(echo?.description, 'Echoes back the input string');
      assert.deepEqual(echo?.inputSchema.required, ['message']);
      const weather = tools.find((t) => t.name === 'everything_get-structured-content');
      assert.deepEqual(Object.keys(weather?.outputSchema?.properties ?? {}).sort(), [
        'conditions',
        'humidity',
        'temperature',
      ]);
      if (python !== undefined) {
        const divide = tools.find((t) => t.name === 'python_divide');
        assert.deepEqual(Object.keys(divide?.outputSchema?.properties ?? {}).sort(), [
          'quotient',
          'remainder',
        ]);
      }
    } finally {
      await client.close();
    }
  });

  test(`issue 28 "outputSchema/structuredContent passed through" (SDK v2, ${era}): everything_echo, server-everything's and FastMCP's structured results, and a payment tool beside them`, async () => {
    const client = await connect(era);
    try {
      await client.listTools(); // the SDK checks structuredContent against the listed outputSchema
      const echo = await client.callTool({
        name: 'everything_echo',
        arguments: { message: `hello from ${era}` },
      });
      assert.notEqual(echo.isError, true, text(echo));
      assert.equal(text(echo), `Echo: hello from ${era}`);

      const weather = await client.callTool({
        name: 'everything_get-structured-content',
        arguments: { location: 'Chicago' },
      });
      assert.notEqual(weather.isError, true, text(weather));
      assert.deepEqual(weather.structuredContent, {
        temperature: 36,
        conditions: 'Light rain / drizzle',
        humidity: 82,
      });

      const sum = await client.callTool({ name: 'live_add', arguments: { a: 2, b: 40 } });
      assert.deepEqual(sum.structuredContent, { sum: 42 });

      const bank = await client.callTool({ name: 'fetchBankDetails', arguments: BANK_ARGS });
      assert.notEqual(bank.isError, true, text(bank));
      assert.equal((bank.structuredContent as { bankCode: string }).bankCode, '011085645');
    } finally {
      await client.close();
    }
  });
}

test('issue 28 "Python FastMCP server … called through the gateway by the TypeScript SDK v2": structuredContent of its typed tool, its text tool, arguments checked against its inputSchema first', async (t) => {
  if (python === undefined) return t.skip(noPython);
  const client = await connect();
  try {
    await client.listTools();
    const divided = await client.callTool({ name: 'python_divide', arguments: { a: 7, b: 2 } });
    assert.notEqual(divided.isError, true, text(divided));
    assert.deepEqual(divided.structuredContent, { quotient: 3.5, remainder: 1 });
    const shout = await client.callTool({ name: 'python_shout', arguments: { text: 'quiet' } });
    assert.equal(text(shout), 'QUIET!');
    // "argument validation against the upstream's inputSchema": refused by the gateway, naming the argument.
    const bad = await client.callTool({
      name: 'python_divide',
      arguments: { a: 'seven', b: 2 },
    });
    assert.equal(bad.isError, true);
    assert.match(text(bad), /\ba\b/);
  } finally {
    await client.close();
  }
});

test('issue 28 "Resources and prompts … offered through the gateway with the same keys, approval (per resource URI prefix and per prompt)": resources/list and read, prompts/list and get (SDK v2)', async () => {
  const client = await connect();
  try {
    const caps = client.getServerCapabilities();
    assert.ok(caps?.resources, 'resources declared: an approved upstream offers them');
    assert.ok(caps?.prompts, 'prompts declared: an approved upstream offers them');

    const { resources } = await client.listResources();
    const uris = resources.map((r) => r.uri);
    assert.ok(
      uris.some((u) => u.startsWith(STATIC)),
      `server-everything's static documents (${uris.join(', ')})`,
    );
    assert.ok(
      uris.every((u) => u.startsWith(STATIC) || u.startsWith('note://')),
      `only approved prefixes (${uris.join(', ')})`,
    );
    if (python !== undefined) assert.ok(uris.includes('note://readme'));
    assert.equal(
      uris.some((u) => u.startsWith('info://')),
      false,
      'live approves no resource: its info://server is not offered',
    );
    const doc = uris.find((u) => u.startsWith(STATIC));
    assert.ok(doc !== undefined);
    const read = await client.readResource({ uri: doc });
    assert.equal(read.contents[0]?.uri, doc);
    if (python !== undefined) {
      const note = await client.readResource({ uri: 'note://readme' });
      assert.equal((note.contents[0] as { text?: string }).text, 'python upstream readme');
    }
    await assert.rejects(
      client.readResource({ uri: 'info://server' }),
      /-32002|not found|Unknown/i,
    );

    const { prompts } = await client.listPrompts();
    const names = prompts.map((p) => p.name).sort();
    assert.deepEqual(
      names,
      [
        'everything_args-prompt',
        'everything_simple-prompt',
        ...(python === undefined ? [] : ['python_review']),
      ].sort(),
    );
    const got = await client.getPrompt({
      name: 'everything_args-prompt',
      arguments: { city: 'Lisbon' },
    });
    assert.match(JSON.stringify(got.messages), /Lisbon/);
    if (python !== undefined) {
      const review = await client.getPrompt({
        name: 'python_review',
        arguments: { code: 'x = 1' },
      });
      assert.match(JSON.stringify(review.messages), /Please review this code:\\n\\nx = 1/);
    }
  } finally {
    await client.close();
  }
});

test('issue 28 "Python clients": the Python SDK lists and calls the federated tools through the gateway', async (t) => {
  const found = pythonWithMcp();
  if ('skip' in found) return t.skip(found.skip);
  const script = join(process.cwd(), 'test', 'e2e', 'python', 'federated_client.py');
  const calls = [
    { name: 'everything_echo', arguments: { message: 'from python' } },
    { name: 'everything_get-sum', arguments: { a: 19, b: 23 } },
    { name: 'live_add', arguments: { a: 1.5, b: 2 } },
    { name: 'fetchBankDetails', arguments: BANK_ARGS },
    ...(python === undefined ? [] : [{ name: 'python_divide', arguments: { a: 9, b: 4 } }]),
  ];
  // Not spawnSync: the `live` upstream answers from this process's event loop, which must keep running.
  const run = await runPython(found.python, [
    script,
    printed.url,
    JSON.stringify(printed.headers),
    JSON.stringify(calls),
  ]);
  assert.equal(run.status, 0, `the Python client failed:\n${run.stderr.slice(-3000)}`);
  const out = JSON.parse(run.stdout) as {
    protocolVersion: string;
    tools: string[];
    calls: { name: string; isError: boolean; text: string; structured: unknown }[];
  };
  assert.equal(out.protocolVersion, '2026-07-28');
  for (const name of ['everything_echo', 'live_add', 'fetchBankDetails', 'getMyAccountBalance'])
    assert.ok(out.tools.includes(name), `${name} listed to the Python client`);
  const byName = new Map(out.calls.map((c) => [c.name, c]));
  for (const c of out.calls) assert.equal(c.isError, false, `${c.name}: ${c.text}`);
  assert.equal(byName.get('everything_echo')?.text, 'Echo: from python');
  assert.equal(byName.get('everything_get-sum')?.text, 'The sum of 19 and 23 is 42.');
  assert.deepEqual(byName.get('live_add')?.structured, { sum: 3.5 });
  assert.equal(
    (byName.get('fetchBankDetails')?.structured as { bankCode: string }).bankCode,
    '011085645',
  );
  if (python !== undefined)
    assert.deepEqual(byName.get('python_divide')?.structured, { quotient: 2.25, remainder: 1 });
});

const REVERSE: FixtureTool = {
  name: 'reverse',
  description: 'Reverses its text.',
  inputSchema: { text: z.string() },
  handler: (args) => ({
    content: [{ type: 'text', text: [...String(args.text)].reverse().join('') }],
  }),
};

test('issue 28 "an upstream that changes its list mid-run" ("refreshed on notifications/tools/list_changed"): live drops slow and adds reverse; tools/list follows at once (its list ttl is an hour) and the new tool is callable', async () => {
  const client = await connect();
  try {
    assert.ok((await toolNames(client)).includes('live_slow'));
    live.setTools([...DEFAULT_TOOLS.filter((t) => t.name !== 'slow'), REVERSE]);
    const deadline = Date.now() + 20_000;
    let names = await toolNames(client);
    while (!(names.includes('live_reverse') && !names.includes('live_slow'))) {
      assert.ok(Date.now() < deadline, `the change is not listed within 20 s: ${names.join(', ')}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
      names = await toolNames(client);
    }
    for (const name of ['createPayment', 'everything_echo', 'live_echo'])
      assert.ok(names.includes(name), `${name} still listed`);
    const reversed = await client.callTool({ name: 'live_reverse', arguments: { text: 'gate' } });
    assert.equal(text(reversed), 'etag');
    // A tool the upstream no longer lists is no longer the gateway's: unknown, the upstream not asked.
    const asked = live.calls.filter((c) => c.method === 'tools/call').length;
    await assert.rejects(
      client.callTool({ name: 'live_slow', arguments: { ms: 1 } }),
      /Unknown tool: live_slow/,
    );
    assert.equal(live.calls.filter((c) => c.method === 'tools/call').length, asked);
  } finally {
    await client.close();
  }
});

// Last: server-everything does not come back.
test('issue 28 "one killed mid-call … its calls get a clear error": server-everything killed during its long-running tool → an isError result naming the backend; the OpenAPI tools still list and call', async () => {
  const client = await connect();
  try {
    await client.listTools();
    const started = Date.now();
    const call = client.callTool({
      name: 'everything_trigger-long-running-operation',
      arguments: { duration: 10, steps: 10 },
    });
    // Killed once the call has certainly reached it (the tool answers only after 10 s).
    await new Promise((resolve) => setTimeout(resolve, 1500));
    everything.child.kill('SIGKILL');
    const result = await call;
    const elapsed = Date.now() - started;
    assert.equal(result.isError, true, JSON.stringify(result));
    assert.match(text(result), /upstream MCP server everything/);
    assert.ok(elapsed < 10_000, `the call ended with the upstream (${elapsed} ms), not at its end`);
    assert.equal(
      /127\.0\.0\.1|localhost|ECONNRESET|socket/i.test(text(result)),
      false,
      `no address or transport detail: ${text(result)}`,
    );
    assert.equal(
      (result._meta?.['io.toolgate/upstream'] as { backend?: string } | undefined)?.backend,
      'everything',
    );

    const names = await toolNames(client);
    for (const name of ['createPayment', 'fetchBankDetails', 'getMyAccountBalance', 'live_echo'])
      assert.ok(names.includes(name), `${name} still listed`);
    const bank = await client.callTool({ name: 'fetchBankDetails', arguments: BANK_ARGS });
    assert.notEqual(bank.isError, true, text(bank));
    const balance = await client.callTool({ name: 'getMyAccountBalance', arguments: {} });
    assert.notEqual(balance.isError, true, text(balance));
    const again = await client.callTool({ name: 'everything_echo', arguments: { message: 'x' } });
    assert.equal(again.isError, true, 'a call to the dead upstream is a tool error');
    assert.match(text(again), /everything/);
    // The operator's side: the failure is logged with the backend and the tool (logs go to stdout).
    const logged = (gateway?.output.stdout ?? '')
      .split('\n')
      .filter((line) => line.includes('upstream MCP call failed'));
    assert.ok(
      logged.some(
        (line) =>
          line.includes('"tool":"everything_trigger-long-running-operation"') &&
          line.includes('"backend":"everything"'),
      ),
      `the failed call is logged: ${logged.join('\n')}`,
    );
  } finally {
    await client.close();
  }
});
