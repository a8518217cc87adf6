// Issue 28, "Resources and prompts … from upstream MCP servers offered through the gateway": the catalogs
// over the real MCP client (mcp-client.ts, openUpstreams) of two real TypeScript-SDK servers
// (support/sdk-upstream.ts: the resource info://server, the template item://{id}, the prompt greet), one
// stateful answering SSE, one stateless answering JSON, configured as `gateway.backends[].mcp` and loaded
// through the configuration schema.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../../src/config/load.js';
import { GatewayError } from '../../../src/gateway/errors.js';
import type { UpstreamMcp } from '../../../src/gateway/federation/contracts.js';
import { FederatedCatalogs } from '../../../src/gateway/federation/federated-catalogs.js';
import { McpUpstreamClient } from '../../../src/gateway/federation/mcp-client.js';
import { startSdkUpstream, type SdkUpstream } from './support/sdk-upstream.js';
import { testCaller } from './support/in-memory-upstream.js';

let first: SdkUpstream;
let firstClosed = false;
let second: SdkUpstream;
let upstreams: Map<string, UpstreamMcp>;
let catalogs: FederatedCatalogs;
const credentials = new Map<string, string>();

before(async () => {
  first = await startSdkUpstream({ stateful: true, json: false, name: 'first' });
  second = await startSdkUpstream({ stateful: false, json: true, name: 'second' });
  const config = loadConfig({
    env: {},
    overrides: {
      gateway: {
        backends: [
          {
            name: 'first',
            mcp: {
              url: first.url,
              resources: { approve: ['info://', 'item://'] },
              prompts: { approve: ['greet'] },
            },
            timeouts: { connectMs: 500, headersMs: 2000, totalMs: 3000 },
          },
          {
            name: 'second',
            mcp: {
              url: second.url,
              toolPrefix: 'two-',
              resources: { approve: ['info://'] },
              prompts: { approve: 'all' },
            },
            timeouts: { connectMs: 500, headersMs: 2000, totalMs: 3000 },
          },
        ],
      },
    },
  });
  // one client per MCP backend, as the gateway opens them (openUpstreams)
  upstreams = new Map(
    config.gateway.backends.flatMap((b) =>
      b.mcp === undefined ? [] : [[b.name, new McpUpstreamClient({ ...b, mcp: b.mcp })] as const],
    ),
  );
  catalogs = new FederatedCatalogs({
    backends: config.gateway.backends,
    upstreams,
    pageSize: 50,
    // the per-caller credentials a read/get carries (identity.ts decides them in the gateway)
    identity: async (caller, backend) => ({
      kind: 'headers',
      headers: {
        authorization: `Bearer ${credentials.get(caller.subscription.id) ?? 'none'}-${backend}`,
      },
    }),
  });
});

after(async () => {
  catalogs.close();
  for (const u of upstreams.values()) await u.close();
  if (!firstClosed) await first.close();
  await second.close();
});

const req = (params: Record<string, unknown> = {}) => ({
  caller: testCaller(),
  params,
  version: '2025-11-25',
});

async function gatewayError(promise: Promise<unknown>): Promise<GatewayError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof GatewayError, `a GatewayError, not ${String(error)}`);
    return error;
  }
  assert.fail('expected a GatewayError');
}

const methods = (u: SdkUpstream) => u.calls.map((c) => c.method).filter((m) => m !== undefined);

test('capabilities: both SDK servers declare resources and prompts, and their backends approve some', async () => {
  assert.deepEqual(await catalogs.capabilities(testCaller()), { resources: true, prompts: true });
});

test('resources/list and resources/templates/list over the real client: merged, the first upstream keeps info://server', async () => {
  const list = await catalogs.listResources(req());
  assert.deepEqual(list.result.resources, [
    {
      uri: 'info://server',
      name: 'info',
      description: 'About this server',
      mimeType: 'text/plain',
    },
  ]);
  const templates = await catalogs.listResourceTemplates(req());
  assert.deepEqual(
    (templates.result.resourceTemplates as { uriTemplate: string }[]).map((t) => t.uriTemplate),
    ['item://{id}'],
    "second approves info:// only, so its item://{id} is not offered (and first's is listed once)",
  );
});

test("resources/read: a listed URI and a template URI routed to the first upstream, with the caller's credentials", async () => {
  credentials.set('sub-1', 'alice');
  const before = methods(second).filter((m) => m === 'resources/read').length;
  const info = await catalogs.readResource(req({ uri: 'info://server' }));
  assert.deepEqual(info.result.contents, [
    { uri: 'info://server', text: 'sdk upstream', mimeType: 'text/plain' },
  ]);
  const item = await catalogs.readResource(req({ uri: 'item://42' }));
  assert.deepEqual(item.result.contents, [{ uri: 'item://42', text: '{"id":"42"}' }]);
  const reads = first.calls.filter((c) => c.method === 'resources/read');
  assert.equal(reads.length, 2);
  assert.equal(reads[1]?.headers.authorization, 'Bearer alice-first');
  assert.equal(
    methods(second).filter((m) => m === 'resources/read').length,
    before,
    'the second upstream never got a read',
  );
  const unknown = await gatewayError(catalogs.readResource(req({ uri: 'secret://x' })));
  assert.equal(unknown.code, 'UNKNOWN_RESOURCE');
});

test('prompts over the real client: prefixed per backend, get strips the prefix, arguments checked first', async () => {
  const list = await catalogs.listPrompts(req());
  assert.deepEqual(
    (list.result.prompts as { name: string }[]).map((p) => p.name),
    ['first_greet', 'two-greet'],
  );
  const got = await catalogs.getPrompt(req({ name: 'two-greet', arguments: { name: 'Ana' } }));
  assert.deepEqual(got.result.messages, [
    { role: 'user', content: { type: 'text', text: 'Hello, Ana!' } },
  ]);
  const gets = () => methods(first).filter((m) => m === 'prompts/get').length;
  const before = gets();
  const missing = await gatewayError(
    catalogs.getPrompt(req({ name: 'first_greet', arguments: {} })),
  );
  assert.equal(missing.code, 'INVALID_PARAMS');
  assert.match(missing.message, /"name"/);
  assert.equal(gets(), before, 'refused before the upstream');
});

test('an upstream killed: its items drop out after list_changed/ttl, its reads get UPSTREAM_UNAVAILABLE; the other still answers', async () => {
  await first.close();
  firstClosed = true;
  // fresh catalogs with listTtlMs 0 over the same clients: every list is fetched again now
  const local = new FederatedCatalogs({
    backends: [
      {
        name: 'first',
        mcp: {
          url: first.url,
          listTtlMs: 0,
          resources: { approve: ['info://', 'item://'] },
          prompts: { approve: ['greet'] },
        },
      },
      {
        name: 'second',
        mcp: {
          url: second.url,
          listTtlMs: 0,
          toolPrefix: 'two-',
          resources: { approve: ['info://'] },
          prompts: { approve: 'all' },
        },
      },
    ],
    upstreams,
    pageSize: 50,
  });
  try {
    await local.capabilities(testCaller());
    const prompts = await local.listPrompts(req());
    assert.deepEqual(
      (prompts.result.prompts as { name: string }[]).map((p) => p.name),
      ['two-greet'],
    );
    const read = await gatewayError(local.readResource(req({ uri: 'item://1' })));
    assert.equal(read.code, 'UPSTREAM_UNAVAILABLE');
    assert.equal((read.data as { backend: string }).backend, 'first');
    // info://server is offered by the second upstream too: it answers while the first is down
    const info = await local.readResource(req({ uri: 'info://server' }));
    assert.equal((info.result.contents as { text: string }[])[0]?.text, 'sdk upstream');
  } finally {
    local.close();
  }
});
