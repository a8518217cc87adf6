// Issue 28 end to end: an OpenAPI backend and an upstream MCP server built with the TypeScript SDK
// (McpServer over Streamable HTTP) behind one gateway. "its tools join the catalogue under a per-backend
// prefix (configurable; collisions refused at load with both names)"; "The upstream's list is cached with
// its ttlMs … one upstream down … never breaks tools/list of the others (its tools drop out with a logged
// reason)"; "the pinned-definition check" applies to upstream tools; "`toolgate tools` lists upstream tools
// with their backend". Gateway and CLI share one SQLite file, as a gateway and an operator share a database.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as z from 'zod';
import { loadConfig } from '../../../src/config/load.js';
import { openGatewayDatabase } from '../../../src/gateway/database.js';
import { GatewayError } from '../../../src/gateway/errors.js';
import type { Database } from '../../../src/shared/db/types.js';
import { runMain } from '../../helpers/cli-in-process.js';
import { startFixtureBackend, type FixtureBackend } from '../support/fixture-backend.js';
import {
  MCP_HEADERS,
  fixtureBackendConfig,
  startTestGateway,
  type TestGateway,
} from '../support/gateway.js';
import {
  DEFAULT_TOOLS,
  startSdkUpstream,
  type FixtureTool,
  type SdkUpstream,
} from './support/sdk-upstream.js';

type Listed = Map<string, Record<string, unknown>>;

async function list(gw: TestGateway): Promise<Listed> {
  const r = await gw.app.inject({
    method: 'POST',
    url: '/mcp',
    headers: { ...MCP_HEADERS, 'mcp-protocol-version': '2025-11-25' },
    payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  const body = r.json() as { result?: { tools: Record<string, unknown>[] }; error?: unknown };
  assert.ok(body.result, `tools/list failed: ${r.body}`);
  return new Map(body.result.tools.map((t) => [String(t.name), t]));
}

/** Lists until `seen` holds (upstream lists are reloaded in the background), for at most 10 s. */
async function eventually(gw: TestGateway, seen: (tools: Listed) => boolean): Promise<Listed> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const tools = await list(gw);
    if (seen(tools)) return tools;
    if (Date.now() > deadline) throw new Error(`not seen within 10 s: ${[...tools.keys()].join()}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const ECHO = DEFAULT_TOOLS.find((t) => t.name === 'echo') as FixtureTool;
const REVERSE: FixtureTool = {
  name: 'reverse',
  description: 'Reverses its text.',
  inputSchema: { text: z.string() },
  handler: (args) => ({
    content: [{ type: 'text', text: [...String(args.text)].reverse().join('') }],
  }),
};
const OPENAPI_TOOLS = ['createPayment', 'getPayment', 'cancelPayment'];

const mcpBackend = (upstream: SdkUpstream, over: Record<string, unknown> = {}) => ({
  name: 'notes',
  mcp: { url: upstream.url, listTtlMs: 200 },
  timeouts: { connectMs: 500, headersMs: 2000, totalMs: 2000 },
  approve: 'all',
  ...over,
});

describe('upstream MCP tools in the catalogue', () => {
  let backend: FixtureBackend;
  let upstream: SdkUpstream;
  let dir: string;
  let configPath: string;
  let db: Database;
  let gw: TestGateway;
  const cli = (...args: string[]) =>
    runMain(['tools', ...args], { TOOLGATE_CONFIG: configPath, USER: 'olga' });

  before(async () => {
    backend = await startFixtureBackend();
    upstream = await startSdkUpstream();
    dir = mkdtempSync(join(tmpdir(), 'toolgate-federation-'));
    const gateway = {
      backends: [fixtureBackendConfig(backend.baseUrl), mcpBackend(upstream)],
      mcp: { approvalRefreshMs: 0 },
    };
    configPath = join(dir, 'config.json');
    writeFileSync(
      configPath,
      JSON.stringify({ dataDir: dir, logging: { level: 'silent' }, gateway }),
    );
    const config = loadConfig({ configPath, env: {} });
    db = await openGatewayDatabase(config.gateway.database, config.dataDir);
    gw = await startTestGateway(gateway, undefined, { db });
  });
  after(async () => {
    await gw.close();
    await db.close();
    await upstream.close();
    await backend.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('issue 28: tools/list shows the OpenAPI tools and the upstream tools under the backend prefix', async () => {
    // The first load is awaited at startup: listed on the first request.
    const tools = await list(gw);
    for (const name of [...OPENAPI_TOOLS, 'notes_echo', 'notes_add', 'notes_slow'])
      assert.ok(tools.has(name), `${name} is listed (${[...tools.keys()].join()})`);
    const echo = tools.get('notes_echo') as Record<string, unknown>;
    assert.equal(echo.description, 'Answers its message.');
    const input = echo.inputSchema as Record<string, unknown>;
    assert.equal(input.type, 'object');
    assert.deepEqual(Object.keys(input.properties as object), ['message']);
    // outputSchema passed through (issue 28: "outputSchema/structuredContent passed through").
    const add = tools.get('notes_add') as Record<string, unknown>;
    assert.deepEqual(Object.keys((add.outputSchema as { properties: object }).properties), ['sum']);
  });

  test('issue 28: `toolgate tools list` shows the upstream tools with their backend and upstream name', async () => {
    const run = await cli('list', '--json');
    assert.equal(run.code, 0, run.stderr);
    const out = JSON.parse(run.stdout) as {
      tools: { name: string; backend: string; method: string; path: string; approved: boolean }[];
      upstreams: { backend: string; state: string; tools: number }[];
    };
    const echo = out.tools.find((t) => t.name === 'notes_echo');
    assert.deepEqual(echo && [echo.backend, echo.method, echo.path, echo.approved], [
      'notes',
      'MCP',
      'echo',
      true,
    ]);
    assert.ok(out.tools.some((t) => t.name === 'getPayment' && t.backend === 'fixture'));
    assert.deepEqual(out.upstreams, [{ backend: 'notes', state: 'ok', tools: 3 }]);
    const text = await cli('list');
    assert.match(text.stdout, /notes_echo\s+notes\s+optional\s+yes \(config\)\s+MCP echo/);
  });

  test('issue 28: `toolgate keys create --tools` accepts an upstream tool and refuses an unknown one', async () => {
    const keys = (...args: string[]) =>
      runMain(['keys', ...args, '--env', 'development'], {
        TOOLGATE_CONFIG: configPath,
        USER: 'olga',
      });
    const made = await keys('create', '--app', 'notes-agent', '--tools', 'notes_echo,getPayment');
    assert.equal(made.code, 0, made.stderr);
    const refused = await keys('create', '--app', 'notes-agent', '--tools', 'notes_nope');
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /--tools names unknown tool\(s\) or product\(s\): notes_nope/);
  });

  test('issue 28: the upstream changes its list mid-run and tools/list follows (ttl)', async () => {
    upstream.setTools([...DEFAULT_TOOLS.filter((t) => t.name !== 'slow'), REVERSE]);
    const tools = await eventually(gw, (t) => t.has('notes_reverse') && !t.has('notes_slow'));
    for (const name of OPENAPI_TOOLS) assert.ok(tools.has(name));
  });

  test('issue 25/28: a changed upstream tool definition is held back until re-approved', async () => {
    upstream.setTools([
      { ...ECHO, description: 'Answers its message, and keeps a copy.' },
      ...DEFAULT_TOOLS.filter((t) => t.name === 'add'),
      REVERSE,
    ]);
    // The changed tool disappears; the unchanged ones stay.
    const tools = await eventually(gw, (t) => !t.has('notes_echo'));
    assert.ok(tools.has('notes_add') && tools.has('notes_reverse'));
    const shown = await cli('list');
    assert.match(shown.stdout, /notes_echo .*held back/);
    assert.match(
      shown.stdout,
      /~ \/description: "Answers its message\." → "Answers its message, and keeps a copy\."/,
    );
    const approved = await cli('approve', 'notes_echo');
    assert.equal(approved.code, 0, approved.stderr);
    const after = await eventually(gw, (t) => t.has('notes_echo'));
    assert.equal(
      (after.get('notes_echo') as Record<string, unknown>).description,
      'Answers its message, and keeps a copy.',
    );
  });

  test('issue 28: the upstream stopped → its tools drop out, the OpenAPI tools still list; the CLI reports it', async () => {
    await upstream.close();
    const tools = await eventually(gw, (t) => ![...t.keys()].some((n) => n.startsWith('notes_')));
    for (const name of OPENAPI_TOOLS) assert.ok(tools.has(name));
    const run = await cli('list');
    assert.equal(run.code, 0, 'an upstream that is down is reported, not fatal');
    assert.match(run.stdout, /Upstream MCP server notes did not list its tools \(unavailable/);
    assert.match(run.stdout, /getPayment/);
    assert.match(gw.logs.join(''), /upstream MCP server did not list its tools/);
  });
});

describe('upstream tool name collisions', () => {
  test('issue 28: an upstream tool named as an OpenAPI tool refuses the start, naming both', async () => {
    const backend = await startFixtureBackend();
    const upstream = await startSdkUpstream({ tools: [{ ...ECHO, name: 'getPayment' }] });
    try {
      await assert.rejects(
        startTestGateway({
          backends: [
            fixtureBackendConfig(backend.baseUrl),
            mcpBackend(upstream, { mcp: { url: upstream.url, toolPrefix: '' } }),
          ],
        }),
        (error: unknown) => {
          assert.ok(error instanceof GatewayError);
          assert.equal(error.code, 'CATALOGUE_LOAD_FAILED');
          assert.match(
            error.message,
            /tool name "getPayment" of backend notes \(upstream tool "getPayment"\) is already the name of a tool of backend fixture \(operation getPayment\)/,
          );
          return true;
        },
      );
    } finally {
      await upstream.close();
      await backend.close();
    }
  });

  test('issue 28: two upstreams whose tools get the same name refuse the start, naming both', async () => {
    const one = await startSdkUpstream({ tools: [ECHO] });
    const two = await startSdkUpstream({ tools: [ECHO] });
    try {
      await assert.rejects(
        startTestGateway({
          backends: [
            mcpBackend(one, { name: 'one', mcp: { url: one.url, toolPrefix: 'x_' } }),
            mcpBackend(two, { name: 'two', mcp: { url: two.url, toolPrefix: 'x_' } }),
          ],
        }),
        /tool name "x_echo" of backend (one|two) \(upstream tool "echo"\) is already the name of a tool of backend (one|two) \(upstream tool "echo"\)/,
      );
    } finally {
      await one.close();
      await two.close();
    }
  });
});
