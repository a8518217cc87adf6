// Issue 28, "Resources and prompts … with the same keys, approval and quotas; the gateway declares the
// capabilities only when an approved upstream offers them": the five methods through the real MCP endpoint
// (endpoint.ts → dispatch.ts) in both protocol eras — legacy `initialize` and 2026-07-28 `server/discover`
// capabilities, result shapes (2026-07-28: resultType, _meta server info, caching hints per
// server/utilities/caching), "method not found" when not offered, and each message admitted by the
// gatekeeper like any other (quota), never counted as tool usage.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { UpstreamMcp } from '../../../src/gateway/federation/contracts.js';
import { FederatedCatalogs } from '../../../src/gateway/federation/federated-catalogs.js';
import {
  InMemoryUpstream,
  bundleScope,
  mcpBackend,
  testCaller,
} from './support/in-memory-upstream.js';
import { harness, legacy, modern, type Harness } from './support/catalog-endpoint.js';

function federated(): { docs: InMemoryUpstream; catalogs: FederatedCatalogs } {
  const docs = new InMemoryUpstream('docs');
  docs.lists.set('resources/list', [{ uri: 'file:///docs/a.md', name: 'a', title: 'A' }]);
  docs.lists.set('resources/templates/list', [{ uriTemplate: 'file:///docs/{name}', name: 'doc' }]);
  docs.lists.set('prompts/list', [
    { name: 'review', arguments: [{ name: 'diff', required: true }] },
  ]);
  docs.listTtlMs = 30_000;
  docs.answers.set('resources/read', (p) => ({
    contents: [{ uri: p.uri, text: 'hello' }],
    ttlMs: 1000,
  }));
  docs.answers.set('prompts/get', (p) => ({
    messages: [
      { role: 'user', content: { type: 'text', text: `diff: ${JSON.stringify(p.arguments)}` } },
    ],
  }));
  const catalogs = new FederatedCatalogs({
    backends: [mcpBackend('docs', { resources: ['file:///docs/'], prompts: ['review'] })],
    upstreams: new Map<string, UpstreamMcp>([['docs', docs]]),
    pageSize: 10,
  });
  return { docs, catalogs };
}

describe('with an approved upstream offering resources and prompts', () => {
  let h: Harness;
  let docs: InMemoryUpstream;
  before(async () => {
    const f = federated();
    docs = f.docs;
    h = await harness(f.catalogs);
  });
  after(() => h.app.close());

  test('2025-11-25 initialize declares resources and prompts (listChanged/subscribe false: no stream is kept)', async () => {
    const r = await legacy(h, 'initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 't', version: '1' },
    });
    assert.deepEqual(r.body.result?.capabilities, {
      tools: { listChanged: false },
      resources: { subscribe: false, listChanged: false },
      prompts: { listChanged: false },
    });
  });

  test('2026-07-28 server/discover declares resources and prompts', async () => {
    const r = await modern(h, 'server/discover');
    assert.deepEqual(r.body.result?.capabilities, { tools: {}, resources: {}, prompts: {} });
  });

  test('legacy shapes: resources/list, resources/templates/list, prompts/list without 2026-07-28 fields', async () => {
    const list = await legacy(h, 'resources/list');
    assert.deepEqual(list.body.result, {
      resources: [{ uri: 'file:///docs/a.md', name: 'a', title: 'A' }],
    });
    const templates = await legacy(h, 'resources/templates/list');
    assert.deepEqual(templates.body.result, {
      resourceTemplates: [{ uriTemplate: 'file:///docs/{name}', name: 'doc' }],
    });
    const prompts = await legacy(h, 'prompts/list', {}, '2025-06-18');
    assert.deepEqual(prompts.body.result, {
      prompts: [{ name: 'docs_review', arguments: [{ name: 'diff', required: true }] }],
    });
    const read = await legacy(h, 'resources/read', { uri: 'file:///docs/x.md' });
    assert.deepEqual(read.body.result, { contents: [{ uri: 'file:///docs/x.md', text: 'hello' }] });
  });

  test('2026-07-28/server/utilities/caching#cacheable-results: lists and resources/read carry ttlMs and cacheScope; prompts/get does not', async () => {
    const list = await modern(h, 'resources/list');
    assert.equal(list.status, 200);
    assert.equal(list.body.result?.resultType, 'complete');
    assert.equal(list.body.result?.ttlMs, 30_000, "the upstream's list ttlMs");
    assert.equal(list.body.result?.cacheScope, 'public');
    assert.deepEqual(
      (list.body.result?._meta as Record<string, unknown>)['io.modelcontextprotocol/serverInfo'],
      { name: 'toolgate', version: '0.1.0' },
    );
    for (const method of ['resources/templates/list', 'prompts/list']) {
      const r = await modern(h, method);
      assert.equal(r.body.result?.ttlMs, 30_000, method);
      assert.equal(r.body.result?.cacheScope, 'public', method);
    }
    const read = await modern(
      h,
      'resources/read',
      { uri: 'file:///docs/a.md' },
      'file:///docs/a.md',
    );
    assert.equal(read.status, 200);
    assert.equal(read.body.result?.ttlMs, 1000);
    assert.equal(read.body.result?.cacheScope, 'private');
    assert.equal(read.body.result?.resultType, 'complete');
    const get = await modern(
      h,
      'prompts/get',
      { name: 'docs_review', arguments: { diff: '+1' } },
      'docs_review',
    );
    assert.equal(get.status, 200);
    assert.equal(get.body.result?.ttlMs, undefined);
    assert.equal(get.body.result?.resultType, 'complete');
    assert.deepEqual(get.body.result?.messages, [
      { role: 'user', content: { type: 'text', text: 'diff: {"diff":"+1"}' } },
    ]);
  });

  test('2026-07-28 Mcp-Name must match the uri of resources/read (HeaderMismatch)', async () => {
    const r = await modern(h, 'resources/read', { uri: 'file:///docs/a.md' }, 'file:///docs/b.md');
    assert.equal(r.status, 400);
    assert.equal(r.body.error?.code, -32020);
  });

  test('errors as JSON-RPC errors: unknown resource -32002 with data.uri, bad prompt arguments -32602', async () => {
    const before = docs.requests.length;
    const unknown = await legacy(h, 'resources/read', { uri: 'file:///etc/passwd' });
    assert.equal(unknown.status, 200);
    assert.equal(unknown.body.error?.code, -32002);
    assert.deepEqual(unknown.body.error?.data, { uri: 'file:///etc/passwd' });
    const args = await legacy(h, 'prompts/get', { name: 'docs_review', arguments: {} });
    assert.equal(args.body.error?.code, -32602);
    assert.match(String(args.body.error?.message), /"diff"/);
    assert.equal(docs.requests.length, before, 'neither reached the upstream');
  });

  test('quotas: every resources/prompts message is admitted by the gatekeeper (no tool), none is counted as tool usage', async () => {
    h.admitted.length = 0;
    h.usage.length = 0;
    const r = await legacy(h, 'resources/list');
    await legacy(h, 'prompts/get', { name: 'docs_review', arguments: { diff: 'x' } });
    await modern(h, 'resources/read', { uri: 'file:///docs/a.md' }, 'file:///docs/a.md');
    assert.deepEqual(h.admitted, [undefined, undefined, undefined]);
    assert.equal(r.headers['ratelimit-remaining'], '99', "the admission's quota headers are sent");
    assert.deepEqual(h.usage, []);
    h.refuse = true;
    const before = docs.requests.length;
    const refused = await legacy(h, 'resources/read', { uri: 'file:///docs/a.md' });
    h.refuse = false;
    assert.equal(refused.status, 429);
    assert.equal(refused.body.error?.code, -31029);
    assert.equal(docs.requests.length, before, 'a refused message is not dispatched');
    assert.deepEqual(h.usage, [], 'a quota refusal of a non-tool message is no tool usage either');
  });

  test('a limited subscription: server/discover and lists are private to it', async () => {
    h.caller = testCaller(new Set(['op0000']));
    try {
      const discover = await modern(h, 'server/discover');
      assert.equal(discover.body.result?.cacheScope, 'private');
      // no toolBackend mapping given: a limited subscription reaches no upstream, so nothing is declared
      assert.deepEqual(discover.body.result?.capabilities, { tools: {} });
      const list = await modern(h, 'resources/list');
      assert.equal(list.status, 404);
      assert.equal(list.body.error?.code, -32601);
    } finally {
      h.caller = testCaller();
    }
  });

  test('a bundle endpoint without resources: not declared, and resources/list is "method not found"', async () => {
    h.caller = testCaller('all', bundleScope([], ['docs_review']));
    try {
      const init = await legacy(h, 'initialize', {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 't', version: '1' },
      });
      assert.deepEqual(init.body.result?.capabilities, {
        tools: { listChanged: false },
        prompts: { listChanged: false },
      });
      const list = await legacy(h, 'resources/list');
      assert.equal(list.body.error?.code, -32601);
      assert.equal((await legacy(h, 'prompts/list')).body.result?.prompts instanceof Array, true);
    } finally {
      h.caller = testCaller();
    }
  });

  test('an upstream down: an empty list (ttlMs 0), and a read gets UPSTREAM_UNAVAILABLE (-31056) naming the backend', async () => {
    docs.notify('notifications/resources/list_changed');
    docs.takeDown();
    try {
      const list = await modern(h, 'resources/list');
      assert.deepEqual(list.body.result?.resources, []);
      assert.equal(list.body.result?.ttlMs, 0);
      const read = await legacy(h, 'resources/read', { uri: 'file:///docs/a.md' });
      assert.equal(read.body.error?.code, -31056);
      assert.equal(read.body.error?.data?.backend, 'docs');
    } finally {
      docs.down = undefined;
    }
  });
});

describe('without federated resources or prompts', () => {
  test('no catalogs, or an upstream approving nothing: nothing declared, every method "method not found" in both eras', async () => {
    const docs = new InMemoryUpstream('docs');
    docs.lists.set('resources/list', [{ uri: 'file:///docs/a.md', name: 'a' }]);
    const approvingNothing = new FederatedCatalogs({
      backends: [mcpBackend('docs')],
      upstreams: new Map<string, UpstreamMcp>([['docs', docs]]),
      pageSize: 10,
    });
    for (const catalogs of [undefined, approvingNothing]) {
      const h = await harness(catalogs);
      try {
        const init = await legacy(h, 'initialize', {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 't', version: '1' },
        });
        assert.deepEqual(init.body.result?.capabilities, { tools: { listChanged: false } });
        const discover = await modern(h, 'server/discover');
        assert.deepEqual(discover.body.result?.capabilities, { tools: {} });
        assert.equal(discover.body.result?.cacheScope, 'public');
        for (const method of ['resources/list', 'resources/templates/list', 'prompts/list']) {
          const l = await legacy(h, method);
          assert.equal(l.status, 200);
          assert.equal(l.body.error?.code, -32601, method);
          const m = await modern(h, method);
          assert.equal(m.status, 404, method);
          assert.equal(m.body.error?.code, -32601, method);
        }
        assert.equal(
          (await legacy(h, 'resources/read', { uri: 'file:///docs/a.md' })).body.error?.code,
          -32601,
        );
        assert.equal(docs.requests.length, 0);
      } finally {
        await h.app.close();
      }
    }
  });
});
