// The gateway's MCP client against a Python FastMCP server (the `mcp` package 2.3.0; issue 28: "a Python
// FastMCP server (the `mcp` package, see test/helpers/python.ts)"). That SDK speaks 2026-07-28, so this is
// where the stateless revision is negotiated through `server/discover`; pinned to 2025-11-25 it keeps
// a session instead.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { McpUpstreamClient } from '../../../src/gateway/federation/mcp-client.js';
import { UpstreamError } from '../../../src/gateway/federation/contracts.js';
import { pythonWithMcp } from '../../helpers/python.js';
import { startFastMcp, type FastMcp } from './support/fastmcp.js';
import { mcpBackend } from './support/upstream-backend.js';

const python = pythonWithMcp();
const skip = 'skip' in python ? python.skip : undefined;
let upstream: FastMcp | undefined;
const clients: McpUpstreamClient[] = [];

before(async () => {
  if ('python' in python) upstream = await startFastMcp(python.python);
});
after(async () => {
  for (const c of clients) await c.close();
  await upstream?.close();
});

function client(pinned?: '2025-11-25'): McpUpstreamClient {
  assert.ok(upstream !== undefined);
  const made = new McpUpstreamClient(
    mcpBackend(
      'python',
      upstream.url,
      pinned === undefined ? {} : { mcp: { protocolVersion: pinned } },
    ),
  );
  clients.push(made);
  return made;
}

test(
  'FastMCP: server/discover negotiates 2026-07-28 (MCP 2026-07-28 Lifecycle, stateless)',
  { skip },
  async () => {
    const mcp = client();
    const server = await mcp.server();
    assert.equal(server.protocolVersion, '2026-07-28');
    assert.equal(server.serverInfo?.name, 'python-upstream');
    assert.equal(server.instructions, "A Python MCP server for toolgate's tests.");
    assert.ok('tools' in server.capabilities && 'prompts' in server.capabilities);
  },
);

test(
  'FastMCP over 2026-07-28: tools with outputSchema, a structured call, resources and prompts (_meta and Mcp-Method/Mcp-Name headers accepted)',
  { skip },
  async () => {
    const mcp = client();
    const tools = await mcp.listAll('tools/list', 'tools');
    assert.deepEqual(tools.items.map((t) => t.name).sort(), ['divide', 'shout']);
    const divide = tools.items.find((t) => t.name === 'divide');
    assert.equal(typeof divide?.outputSchema, 'object');
    const result = await mcp.request('tools/call', { name: 'divide', arguments: { a: 7, b: 2 } });
    assert.deepEqual(result.structuredContent, { quotient: 3.5, remainder: 1 });
    const shouted = await mcp.request('tools/call', { name: 'shout', arguments: { text: 'hi' } });
    assert.deepEqual(shouted.content, [{ type: 'text', text: 'HI!' }]);
    const resources = await mcp.listAll('resources/list', 'resources');
    assert.deepEqual(
      resources.items.map((r) => r.uri),
      ['note://readme'],
    );
    const read = await mcp.request('resources/read', { uri: 'note://readme' });
    assert.equal((read.contents as { text: string }[])[0]?.text, 'python upstream readme');
    const prompts = await mcp.listAll('prompts/list', 'prompts');
    assert.deepEqual(
      prompts.items.map((p) => p.name),
      ['review'],
    );
    const prompt = await mcp.request('prompts/get', {
      name: 'review',
      arguments: { code: 'x = 1' },
    });
    assert.match(JSON.stringify(prompt.messages), /x = 1/);
  },
);

test(
  'FastMCP: a 2026-07-28 list answer\'s ttlMs is returned by listAll (issue 28: "cached with its ttlMs where given")',
  { skip },
  async () => {
    const mcp = client();
    const raw = await mcp.request('tools/list', {});
    const listed = await mcp.listAll('tools/list', 'tools');
    // The Python SDK's 2026-07-28 list results are cacheable: they carry ttlMs (0 unless configured).
    assert.equal(typeof raw.ttlMs, 'number');
    assert.equal(listed.ttlMs, raw.ttlMs);
  },
);

test(
  'FastMCP: an unknown tool is an rpc failure or an isError result, never a transport failure',
  { skip },
  async () => {
    const mcp = client();
    const outcome = await mcp
      .request('tools/call', { name: 'nope', arguments: {} })
      .catch((error: unknown) => error);
    if (outcome instanceof UpstreamError) assert.equal(outcome.reason, 'rpc');
    else assert.equal((outcome as { isError?: unknown }).isError, true);
  },
);

test(
  'FastMCP pinned to 2025-11-25: initialize, a session, and the header on every request',
  { skip },
  async () => {
    const mcp = client('2025-11-25');
    const server = await mcp.server();
    assert.equal(server.protocolVersion, '2025-11-25');
    const result = await mcp.request('tools/call', { name: 'divide', arguments: { a: 9, b: 4 } });
    assert.deepEqual(result.structuredContent, { quotient: 2.25, remainder: 1 });
  },
);
