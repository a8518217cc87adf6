// The gateway's MCP client against toolgate's own MCP endpoint, the one server here that speaks
// 2026-07-28 and pages tools/list: negotiation by server/discover, the revision's `_meta` and headers on
// every request (the endpoint checks them, -32020 otherwise), nextCursor followed, ttlMs returned (issue 28:
// "the upstream's list is cached with its ttlMs where given").
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { McpUpstreamClient } from '../../../src/gateway/federation/mcp-client.js';
import { startFixtureBackend, type FixtureBackend } from '../support/fixture-backend.js';
import { fixtureBackendConfig, startTestGateway, type TestGateway } from '../support/gateway.js';
import { mcpBackend } from './support/upstream-backend.js';

let backend: FixtureBackend;
let gw: TestGateway;
let mcp: McpUpstreamClient;

before(async () => {
  backend = await startFixtureBackend();
  gw = await startTestGateway({
    backends: [fixtureBackendConfig(backend.baseUrl)],
    mcp: { pageSize: 2 },
  });
  await gw.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = gw.app.server.address() as AddressInfo;
  mcp = new McpUpstreamClient(mcpBackend('toolgate', `http://127.0.0.1:${port}/mcp`));
});
after(async () => {
  await mcp.close();
  await gw.close();
  await backend.close();
});

test('toolgate: server/discover negotiates 2026-07-28 (MCP 2026-07-28, stateless server/discover)', async () => {
  const server = await mcp.server();
  assert.equal(server.protocolVersion, '2026-07-28');
  assert.equal(server.serverInfo?.name, 'toolgate');
  assert.ok('tools' in server.capabilities);
});

test('toolgate: listAll follows nextCursor over every page (MCP Pagination) and returns the ttlMs', async () => {
  const first = await mcp.request('tools/list', {});
  assert.equal((first.tools as unknown[]).length, 2);
  assert.equal(typeof first.nextCursor, 'string', 'the fixture has more than one page of tools');
  let pages = 0;
  const expected: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await mcp.request('tools/list', cursor === undefined ? {} : { cursor });
    for (const tool of page.tools as { name: string }[]) expected.push(tool.name);
    cursor = typeof page.nextCursor === 'string' ? page.nextCursor : undefined;
    pages++;
  } while (cursor !== undefined);
  assert.ok(pages > 1);
  const all = await mcp.listAll('tools/list', 'tools');
  assert.deepEqual(
    all.items.map((t) => t.name),
    expected,
  );
  assert.equal(all.ttlMs, first.ttlMs);
  assert.equal(typeof all.ttlMs, 'number');
});
