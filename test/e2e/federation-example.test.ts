// The documented federation example (examples/federation/README.md, toolgate.yaml, notes-server.mjs) run as
// its README says: server-everything and the notes server on ports of their own, then
// `toolgate start --config examples/federation/toolgate.yaml`. Issue 28: "`gateway.backends[]` gains
// `mcp: { url, headers?, ... }` beside `openapi`", "its tools join the catalogue under a per-backend prefix",
// identity to upstream MCP servers "the identity headers … the HTTP backends get", resources and prompts
// "with the same keys, approval … and quotas", and "Tool bundles: … served at `/mcp/<name>` … so a team's
// client lists only its tools".
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rpc } from '../helpers/mcp-http.js';
import { finished, runCli, spawnCli, waitForSummary } from '../helpers/process.js';
import { startEverything, type Everything } from '../gateway/federation/support/everything.js';

const CONFIG = join('examples', 'federation', 'toolgate.yaml');
const NOTES_SERVER = join(process.cwd(), 'examples', 'federation', 'notes-server.mjs');
const NOTES_GATEWAY_KEY = 'nsk_example_shared_secret_0123456789';

interface Summary {
  gatewayUrl: string;
  mcpUrl: string;
  subscriptionKey: string;
  sampleUser: string;
  sampleToken: string;
  demoWiring?: string;
  clientConfig: { mcpServers: { toolgate: { url: string; headers: Record<string, string> } } };
}

/** notes-server.mjs on a free port (its argument 0), its address read from the line it prints. */
function startNotes(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [NOTES_SERVER, '0'], {
    env: { PATH: process.env.PATH, NOTES_GATEWAY_KEY },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the notes server did not start: ${log}`)),
      20_000,
    );
    const onData = (d: Buffer) => {
      log += d.toString();
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(log);
      if (match?.[1] !== undefined) {
        clearTimeout(timer);
        resolve({ url: match[1], child });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the notes server exited (${code}): ${log}`));
    });
  });
}

let everything: Everything;
let notes: { url: string; child: ChildProcess };
let gateway: ReturnType<typeof spawnCli> | undefined;
let summary: Summary;
let env: NodeJS.ProcessEnv;

before(async () => {
  [everything, notes] = await Promise.all([startEverything(), startNotes()]);
  env = {
    TOOLGATE_DATA_DIR: mkdtempSync(join(tmpdir(), 'toolgate-federation-example-')),
    TOOLGATE_GATEWAY_PORT: '0',
    TOOLGATE_PAYMENTS_PORT: '0',
    TOOLGATE_LOG_LEVEL: 'warn',
    EVERYTHING_URL: everything.url,
    NOTES_URL: notes.url,
    NOTES_GATEWAY_KEY,
  };
  gateway = spawnCli(['start', '--json', '--config', CONFIG], env);
  summary = (await waitForSummary(gateway)) as unknown as Summary;
});

after(async () => {
  try {
    if (gateway !== undefined) {
      gateway.kill('SIGTERM');
      const stopped = await finished(gateway, 15_000);
      assert.equal(stopped.code, 0, stopped.stderr.slice(-1000));
      assert.equal(
        stopped.stdout.includes(NOTES_GATEWAY_KEY) || stopped.stderr.includes(NOTES_GATEWAY_KEY),
        false,
        'the shared secret never appears in the logs (secrets: in the example)',
      );
    }
  } finally {
    notes?.child.kill('SIGTERM');
    await everything?.close();
  }
});

const keyOnly = () => ({ 'Ocp-Apim-Subscription-Key': summary.subscriptionKey });
/** The printed client block: the demo key and alice's token. */
const alice = () => summary.clientConfig.mcpServers.toolgate.headers;

function texts(result: { content?: { type: string; text?: string }[] }): string {
  return (result.content ?? []).map((c) => c.text ?? '').join('\n');
}

test('the example starts with the demo wiring and lists the payment tools, the everything_ and the notes_ tools (issue 28: prefixed upstream tools beside the OpenAPI ones)', async () => {
  assert.equal(summary.demoWiring, undefined, 'the demo wiring applies to the payment backends');
  assert.equal(summary.sampleUser, 'alice');
  const list = await rpc(summary.mcpUrl, keyOnly(), 'tools/list');
  assert.equal(list.status, 200, JSON.stringify(list.body));
  const names = (list.body.result.tools as { name: string }[]).map((t) => t.name);
  for (const name of [
    'createPayment',
    'getMyAccountBalance',
    'everything_echo',
    'everything_get-sum',
    'everything_get-structured-content',
    'notes_add_note',
    'notes_list_notes',
  ])
    assert.ok(names.includes(name), `${name} listed (${names.join(', ')})`);
  // approve: [echo, get-sum, get-structured-content] — the reference server's other tools stay out.
  assert.deepEqual(names.filter((n) => n.startsWith('everything_')).sort(), [
    'everything_echo',
    'everything_get-structured-content',
    'everything_get-sum',
  ]);
  const echo = await rpc(summary.mcpUrl, keyOnly(), 'tools/call', {
    name: 'everything_echo',
    arguments: { message: 'hi' },
  });
  assert.equal(texts(echo.body.result), 'Echo: hi', JSON.stringify(echo.body));
});

test("issue 28 identity mode headers to an upstream MCP server: alice's notes_add_note then notes_list_notes returns her note; bob sees none of it; no user, no call", async () => {
  const added = await rpc(summary.mcpUrl, alice(), 'tools/call', {
    name: 'notes_add_note',
    arguments: { text: 'pay the rent' },
  });
  assert.equal(added.status, 200);
  assert.notEqual(added.body.result.isError, true, JSON.stringify(added.body));
  assert.equal(texts(added.body.result), 'Noted (1 notes).');
  const mine = await rpc(summary.mcpUrl, alice(), 'tools/call', {
    name: 'notes_list_notes',
    arguments: {},
  });
  assert.deepEqual(mine.body.result.structuredContent, { notes: ['pay the rent'] });

  // Another user of the same application: the notes server is told who the user is by the gateway.
  const token = await runCli(['token', '--sub', 'bob', '--config', CONFIG], {
    ...env,
    TOOLGATE_GATEWAY_PORT: new URL(summary.gatewayUrl).port,
  });
  assert.equal(token.code, 0, token.stderr);
  const bob = { ...keyOnly(), Authorization: `Bearer ${token.stdout.trim()}` };
  const his = await rpc(summary.mcpUrl, bob, 'tools/call', {
    name: 'notes_list_notes',
    arguments: {},
  });
  assert.deepEqual(his.body.result.structuredContent, { notes: [] }, JSON.stringify(his.body));

  // securityClass user-scoped: without a user token the gateway refuses before the notes server.
  const anonymous = await rpc(summary.mcpUrl, keyOnly(), 'tools/call', {
    name: 'notes_list_notes',
    arguments: {},
  });
  assert.equal(anonymous.status, 401, JSON.stringify(anonymous.body));

  // And a client that reaches the notes server itself cannot claim to be alice.
  const direct = await fetch(notes.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'x-user-id': 'alice',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  assert.equal(direct.status, 401);
});

test('issue 28 resources and prompts through the gateway: alice reads her notes resource and gets the notes_summarize prompt with them; only approved ones are listed', async () => {
  const resources = await rpc(summary.mcpUrl, alice(), 'resources/list');
  const uris = ((resources.body.result?.resources ?? []) as { uri: string }[]).map((r) => r.uri);
  assert.ok(uris.includes('notes://me/all'), JSON.stringify(resources.body));
  assert.ok(
    uris.every((u) => u.startsWith('notes://me/') || u.startsWith('demo://resource/static/')),
    uris.join(', '),
  );
  const read = await rpc(summary.mcpUrl, alice(), 'resources/read', { uri: 'notes://me/all' });
  assert.equal(read.body.result?.contents?.[0]?.text, 'pay the rent', JSON.stringify(read.body));

  const prompts = await rpc(summary.mcpUrl, alice(), 'prompts/list');
  assert.deepEqual((prompts.body.result?.prompts as { name: string }[]).map((p) => p.name).sort(), [
    'everything_args-prompt',
    'everything_simple-prompt',
    'notes_summarize',
  ]);
  const got = await rpc(summary.mcpUrl, alice(), 'prompts/get', {
    name: 'notes_summarize',
    arguments: { tone: 'formal' },
  });
  assert.match(
    String(got.body.result?.messages?.[0]?.content?.text),
    /^Summarize these notes \(formal\):\npay the rent$/,
    JSON.stringify(got.body),
  );
});

test("issue 28 tool bundles: /mcp/notes lists only the bundle's tools (backend:notes and getMyAccountBalance), its prompt and resources, and refuses the others", async () => {
  const url = `${summary.mcpUrl}/notes`;
  const list = await rpc(url, keyOnly(), 'tools/list');
  assert.equal(list.status, 200, JSON.stringify(list.body));
  assert.deepEqual((list.body.result.tools as { name: string }[]).map((t) => t.name).sort(), [
    'getMyAccountBalance',
    'notes_add_note',
    'notes_list_notes',
  ]);
  const other = await rpc(url, keyOnly(), 'tools/call', {
    name: 'everything_echo',
    arguments: { message: 'x' },
  });
  assert.match(JSON.stringify(other.body), /Unknown tool/);
  const prompts = await rpc(url, keyOnly(), 'prompts/list');
  assert.deepEqual(
    (prompts.body.result?.prompts as { name: string }[] | undefined)?.map((p) => p.name),
    ['notes_summarize'],
    JSON.stringify(prompts.body),
  );
  // resources: ['notes://me/'] — server-everything's documents, approved at /mcp, are not the bundle's.
  const resources = await rpc(url, keyOnly(), 'resources/list');
  assert.deepEqual(
    (resources.body.result?.resources as { uri: string }[] | undefined)?.map((r) => r.uri),
    ['notes://me/all'],
    JSON.stringify(resources.body),
  );
  const init = await rpc(url, keyOnly(), 'initialize', {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'e2e', version: '1' },
  });
  assert.equal(init.body.result?.serverInfo?.name, 'toolgate/notes');
  assert.equal(init.body.result?.serverInfo?.title, 'Notes');
});
