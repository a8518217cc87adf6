// Issue 28, "Tests with servers no one here wrote": the resources and prompts of
// `@modelcontextprotocol/server-everything` (Streamable HTTP, sessions, SSE answers) offered through the
// gateway's MCP endpoint over the real client, with approval by URI prefix (its static documents and its
// text template, not its blob template) and per prompt, in both protocol eras.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../../src/config/load.js';
import { FederatedCatalogs } from '../../../src/gateway/federation/federated-catalogs.js';
import { McpUpstreamClient } from '../../../src/gateway/federation/mcp-client.js';
import { startEverything, type Everything } from './support/everything.js';
import { harness, legacy, modern, type Harness } from './support/catalog-endpoint.js';

let everything: Everything;
let client: McpUpstreamClient;
let catalogs: FederatedCatalogs;
let h: Harness;

const STATIC = 'demo://resource/static/';
const TEXT = 'demo://resource/dynamic/text/';

before(async () => {
  everything = await startEverything();
  const config = loadConfig({
    env: {},
    overrides: {
      gateway: {
        backends: [
          {
            name: 'everything',
            mcp: {
              url: everything.url,
              resources: { approve: [STATIC, TEXT] },
              prompts: { approve: ['args-prompt', 'simple-prompt'] },
            },
          },
        ],
      },
    },
  });
  const backend = config.gateway.backends[0];
  assert.ok(backend?.mcp !== undefined);
  client = new McpUpstreamClient({ ...backend, mcp: backend.mcp });
  catalogs = new FederatedCatalogs({
    backends: config.gateway.backends,
    upstreams: new Map([['everything', client]]),
    pageSize: 100,
  });
  h = await harness(catalogs);
});

after(async () => {
  await h.app.close();
  catalogs.close();
  await client.close();
  await everything.close();
});

test('initialize (2025-11-25) and server/discover (2026-07-28) declare resources and prompts: the reference server offers both and they are approved', async () => {
  const init = await legacy(h, 'initialize', {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 't', version: '1' },
  });
  assert.deepEqual(init.body.result?.capabilities, {
    tools: { listChanged: false },
    resources: { subscribe: false, listChanged: false },
    prompts: { listChanged: false },
  });
  const discover = await modern(h, 'server/discover');
  assert.deepEqual(discover.body.result?.capabilities, { tools: {}, resources: {}, prompts: {} });
});

test('resources/list and resources/templates/list: its approved documents and its text template, not its blob template', async () => {
  const direct = await client.listAll('resources/list', 'resources');
  const expected = direct.items.map((r) => r.uri as string).filter((u) => u.startsWith(STATIC));
  assert.ok(expected.length > 0, 'the reference server lists static documents');
  const list = await legacy(h, 'resources/list');
  const uris = (list.body.result?.resources as { uri: string }[]).map((r) => r.uri);
  assert.deepEqual(uris, expected);
  const templates = await modern(h, 'resources/templates/list');
  assert.deepEqual(
    (templates.body.result?.resourceTemplates as { uriTemplate: string }[]).map(
      (t) => t.uriTemplate,
    ),
    [`${TEXT}{resourceId}`],
  );
  assert.equal(templates.body.result?.resultType, 'complete');
  assert.equal(templates.body.result?.cacheScope, 'public');
});

test('resources/read: a listed document (2026-07-28) and a URI of the approved template (legacy); the blob template is never reached', async () => {
  const list = await legacy(h, 'resources/list');
  const [doc] = (list.body.result?.resources as { uri: string }[]).map((r) => r.uri);
  assert.ok(doc !== undefined);
  const read = await modern(h, 'resources/read', { uri: doc }, doc);
  assert.equal(read.status, 200);
  const contents = read.body.result?.contents as { uri: string; text?: string }[];
  assert.equal(contents[0]?.uri, doc);
  assert.ok(typeof contents[0]?.text === 'string' && contents[0].text.length > 0);
  assert.equal(read.body.result?.cacheScope, 'private');

  const text = await legacy(h, 'resources/read', { uri: `${TEXT}7` });
  assert.equal((text.body.result?.contents as { uri: string }[])[0]?.uri, `${TEXT}7`);

  const blob = await legacy(h, 'resources/read', { uri: 'demo://resource/dynamic/blob/7' });
  assert.equal(blob.body.error?.code, -32002);
  assert.deepEqual(blob.body.error?.data, { uri: 'demo://resource/dynamic/blob/7' });
});

test('prompts: the approved two under "everything_", got with the upstream name; a missing required argument refused first', async () => {
  const list = await legacy(h, 'prompts/list');
  assert.deepEqual(
    (list.body.result?.prompts as { name: string }[]).map((p) => p.name),
    ['everything_simple-prompt', 'everything_args-prompt'],
  );
  const got = await modern(
    h,
    'prompts/get',
    { name: 'everything_args-prompt', arguments: { city: 'Lisbon' } },
    'everything_args-prompt',
  );
  assert.equal(got.status, 200);
  const messages = got.body.result?.messages as { role: string; content: { text?: string } }[];
  assert.match(String(messages[0]?.content.text), /Lisbon/);
  const missing = await legacy(h, 'prompts/get', {
    name: 'everything_args-prompt',
    arguments: { state: 'x' },
  });
  assert.equal(missing.body.error?.code, -32602);
  assert.match(String(missing.body.error?.message), /"city"/);
  const unapproved = await legacy(h, 'prompts/get', {
    name: 'everything_resource-prompt',
    arguments: { resourceType: 'Text', resourceId: '1' },
  });
  assert.equal(unapproved.body.error?.code, -32602);
  assert.match(String(unapproved.body.error?.message), /Unknown prompt/);
});
