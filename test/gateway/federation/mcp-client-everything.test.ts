// The gateway's MCP client against a server no one here wrote (issue 28: "Tests with servers no one here
// wrote: @modelcontextprotocol/server-everything (Streamable HTTP mode)"): negotiation, paging, calls,
// notifications in a call's SSE stream, and the server killed mid-call.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { McpUpstreamClient } from '../../../src/gateway/federation/mcp-client.js';
import {
  UpstreamError,
  type UpstreamNotification,
} from '../../../src/gateway/federation/contracts.js';
import { startEverything, type Everything } from './support/everything.js';
import { mcpBackend } from './support/upstream-backend.js';

let everything: Everything;
let mcp: McpUpstreamClient;

before(async () => {
  everything = await startEverything();
  mcp = new McpUpstreamClient(mcpBackend('everything', everything.url));
});
after(async () => {
  await mcp.close();
  await everything.close();
});

test('server-everything: server/discover is refused (no session), initialize negotiates 2025-11-25 with a session (MCP 2025-11-25 Lifecycle)', async () => {
  const server = await mcp.server();
  assert.equal(server.protocolVersion, '2025-11-25');
  assert.equal(typeof server.serverInfo?.name, 'string');
  assert.ok('tools' in server.capabilities);
  assert.ok('resources' in server.capabilities);
  assert.ok('prompts' in server.capabilities);
});

test('server-everything: tools/list, tools/call echo and get-structured-content', async () => {
  const tools = await mcp.listAll('tools/list', 'tools');
  const names = tools.items.map((t) => t.name);
  assert.ok(names.includes('echo'), names.join(', '));
  const echoed = await mcp.request('tools/call', {
    name: 'echo',
    arguments: { message: 'from toolgate' },
  });
  assert.deepEqual(echoed.content, [{ type: 'text', text: 'Echo: from toolgate' }]);
  const structured = tools.items.find((t) => t.name === 'get-structured-content');
  if (structured !== undefined) {
    assert.equal(typeof structured.outputSchema, 'object');
    const result = await mcp.request('tools/call', {
      name: 'get-structured-content',
      arguments: { location: 'New York' },
    });
    assert.equal(typeof result.structuredContent, 'object');
  }
});

test('server-everything: resources/list (all pages), templates, read and prompts (MCP Pagination)', async () => {
  const first = await mcp.request('resources/list', {});
  const all = await mcp.listAll('resources/list', 'resources');
  assert.ok(Array.isArray(first.resources));
  // server-everything lists its resources on one page today; were it to page, every page must be there.
  if (typeof first.nextCursor === 'string')
    assert.ok(all.items.length > (first.resources as unknown[]).length, 'more than one page');
  const uris = all.items.map((r) => r.uri as string);
  assert.equal(new Set(uris).size, uris.length, 'no page listed twice');
  const [uri] = uris;
  assert.ok(uri !== undefined);
  const read = await mcp.request('resources/read', { uri });
  assert.ok(Array.isArray(read.contents) && read.contents.length > 0);
  const templates = await mcp.listAll('resources/templates/list', 'resourceTemplates');
  assert.ok(templates.items.length > 0);
  const prompts = await mcp.listAll('prompts/list', 'prompts');
  const names = prompts.items.map((p) => p.name);
  assert.ok(names.length > 0);
});

test("server-everything: notifications in a call's SSE stream reach onNotification (progress, MCP Utilities/Progress)", async () => {
  const seen: UpstreamNotification[] = [];
  const stop = mcp.onNotification((n) => seen.push(n));
  try {
    const result = await mcp.request('tools/call', {
      name: 'trigger-long-running-operation',
      arguments: { duration: 0.3, steps: 3 },
      _meta: { progressToken: 'p-1' },
    });
    assert.ok(Array.isArray(result.content));
  } finally {
    stop();
  }
  const progress = seen.filter((n) => n.method === 'notifications/progress');
  assert.deepEqual(
    progress.map((n) => [n.params?.progressToken, n.params?.progress]),
    [
      ['p-1', 1],
      ['p-1', 2],
      ['p-1', 3],
    ],
  );
});

test('server-everything killed mid-call: the call ends as unavailable, then the upstream stays unavailable (no hang)', async () => {
  const victim = await startEverything();
  const client = new McpUpstreamClient(mcpBackend('victim', victim.url));
  try {
    await client.server();
    const call = client
      .request('tools/call', {
        name: 'trigger-long-running-operation',
        arguments: { duration: 20, steps: 2 },
      })
      .then(
        () => assert.fail('the call should not complete'),
        (error: unknown) => error,
      );
    await new Promise((resolve) => setTimeout(resolve, 300));
    const started = Date.now();
    victim.child.kill('SIGKILL');
    const error = await call;
    assert.ok(error instanceof UpstreamError);
    assert.equal(error.reason, 'unavailable');
    assert.ok(Date.now() - started < 3000, `took ${Date.now() - started} ms`);
    const next = await client.request('tools/list', {}).catch((e: unknown) => e);
    assert.ok(next instanceof UpstreamError);
    assert.equal(next.reason, 'unavailable');
  } finally {
    await client.close();
    await victim.close();
  }
});
