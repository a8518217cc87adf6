// Issue 28: "The upstream's list is cached with its ttlMs where given and refreshed on
// notifications/tools/list_changed; one upstream down or slow never breaks tools/list of the others (its
// tools drop out with a logged reason)"; "its tools join the catalogue under a per-backend prefix
// (configurable; collisions refused at load with both names)".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import { buildCatalogue } from '../../../src/gateway/catalogue/build.js';
import { GatewayError } from '../../../src/gateway/errors.js';
import {
  LIST_CHANGED,
  UpstreamToolCache,
  ttlOf,
  type FederatedBackend,
  type FederatedToolsOptions,
} from '../../../src/gateway/federation/federated-tools.js';
import type { Tool } from '../../../src/gateway/catalogue/types.js';
import { LogCapture } from '../../helpers/capture.js';
import { largeDocument } from '../support/large-document.js';
import { ScriptedUpstream } from './support/scripted-upstream.js';

const mcpBackend = (
  name: string,
  over: Partial<FederatedBackend['mcp']> = {},
  approve: FederatedBackend['approve'] = 'all',
): FederatedBackend => ({
  name,
  mcp: { securityClass: 'optional', listTtlMs: 60_000, ...over },
  approve,
});

interface Setup {
  backends: FederatedBackend[];
  upstreams: ScriptedUpstream[];
  reserved?: ReadonlyMap<string, Tool>;
  clock?: { now: number };
  waitMs?: number;
}

function harness(setup: Setup) {
  const logs = new LogCapture();
  const clock = setup.clock ?? { now: 0 };
  const options: FederatedToolsOptions = {
    backends: setup.backends,
    upstreams: new Map(setup.upstreams.map((u) => [u.backend, u])),
    reserved: () => setup.reserved ?? new Map(),
    logger: pino({ level: 'info' }, logs),
    now: () => clock.now,
    retryMs: 5000,
  };
  return {
    logs,
    clock,
    open: () => UpstreamToolCache.open(options, setup.waitMs ?? 2000),
  };
}

const names = (cache: UpstreamToolCache) => cache.tools().map((t) => t.name);

test("issue 28: each upstream's tools are served under its prefix; approve takes catalogue or upstream names", async () => {
  const docs = new ScriptedUpstream('docs');
  docs.items = ScriptedUpstream.tools('search', 'fetch');
  const crm = new ScriptedUpstream('crm');
  crm.items = ScriptedUpstream.tools('contacts', 'deals', 'notes');
  const { open } = harness({
    backends: [
      mcpBackend('docs'),
      mcpBackend('crm', { toolPrefix: 'sales-' }, ['contacts', 'sales-deals']),
    ],
    upstreams: [docs, crm],
  });
  const cache = await open();
  assert.deepEqual(names(cache), [
    'docs_search',
    'docs_fetch',
    'sales-contacts',
    'sales-deals',
    'sales-notes',
  ]);
  assert.deepEqual([...cache.approved()].sort(), [
    'docs_fetch',
    'docs_search',
    'sales-contacts',
    'sales-deals',
  ]);
  assert.deepEqual(
    cache.status().map((s) => [s.backend, s.state, s.tools, s.protocolVersion]),
    [
      ['docs', 'ok', 2, '2025-11-25'],
      ['crm', 'ok', 3, '2025-11-25'],
    ],
  );
  cache.close();
  assert.equal(docs.listening, 0, 'close stops listening for notifications');
});

test("issue 28 ttlMs: the upstream's own ttlMs is used where given, else mcp.listTtlMs; poke reloads only stale lists", async () => {
  const withTtl = new ScriptedUpstream('a');
  withTtl.items = ScriptedUpstream.tools('one');
  withTtl.ttlMs = 10_000;
  const without = new ScriptedUpstream('b');
  without.items = ScriptedUpstream.tools('two');
  const { open, clock } = harness({
    backends: [mcpBackend('a', { listTtlMs: 60_000 }), mcpBackend('b', { listTtlMs: 30_000 })],
    upstreams: [withTtl, without],
  });
  const cache = await open();
  const revision = cache.revision;
  assert.deepEqual([withTtl.lists, without.lists], [1, 1]);
  clock.now = 9_999;
  cache.poke();
  await cache.settled();
  assert.deepEqual([withTtl.lists, without.lists], [1, 1], 'nothing is stale yet');
  withTtl.items = ScriptedUpstream.tools('one', 'three');
  clock.now = 10_000;
  cache.poke();
  // poke never waits: the old list is served until the new one is in.
  assert.deepEqual(names(cache), ['a_one', 'b_two']);
  await cache.settled();
  assert.deepEqual([withTtl.lists, without.lists], [2, 1]);
  assert.deepEqual(names(cache), ['a_one', 'a_three', 'b_two']);
  assert.ok(cache.revision > revision, 'a changed list moves the revision');
  clock.now = 30_000;
  const before = cache.revision;
  cache.poke();
  await cache.settled();
  assert.equal(without.lists, 2, 'the configured ttl applies where the upstream gives none');
  assert.equal(cache.revision, before, 'the same list again does not move the revision');
  cache.close();
});

test('ttlOf: an upstream ttl is raised to 1 s and capped at a day; absent or invalid → configured', () => {
  assert.equal(ttlOf(undefined, 60_000), 60_000);
  assert.equal(ttlOf(-5, 60_000), 60_000);
  assert.equal(ttlOf(Number.NaN, 60_000), 60_000);
  assert.equal(ttlOf(0, 60_000), 1000);
  assert.equal(ttlOf(2500, 60_000), 2500);
  assert.equal(ttlOf(1e12, 60_000), 86_400_000);
});

test('notifications/tools/list_changed reloads the list at once, without waiting for a poke', async () => {
  const up = new ScriptedUpstream('live');
  up.items = ScriptedUpstream.tools('a');
  const { open } = harness({ backends: [mcpBackend('live')], upstreams: [up] });
  const cache = await open();
  up.items = ScriptedUpstream.tools('a', 'b');
  up.notify('notifications/resources/list_changed');
  await cache.settled();
  assert.equal(up.lists, 1, 'other notifications do not reload the tools');
  up.notify(LIST_CHANGED);
  await cache.settled();
  assert.equal(up.lists, 2);
  assert.deepEqual(names(cache), ['live_a', 'live_b']);
  cache.close();
});

test('a list_changed while a load is running reads the list again after it (no change is lost)', async () => {
  const up = new ScriptedUpstream('live');
  up.items = ScriptedUpstream.tools('a');
  const { open } = harness({ backends: [mcpBackend('live')], upstreams: [up] });
  const cache = await open();
  let release!: () => void;
  up.gate = new Promise<void>((resolve) => (release = resolve));
  up.notify(LIST_CHANGED);
  up.items = ScriptedUpstream.tools('a', 'late');
  up.notify(LIST_CHANGED); // during the load: single flight, then one more
  up.gate = undefined;
  release();
  await cache.settled();
  assert.equal(up.lists, 3);
  assert.deepEqual(names(cache), ['live_a', 'live_late']);
  cache.close();
});

test('issue 28: an upstream down drops its tools with a logged reason; the others stay; it comes back', async () => {
  const good = new ScriptedUpstream('good');
  good.items = ScriptedUpstream.tools('ok');
  const flaky = new ScriptedUpstream('flaky');
  flaky.items = ScriptedUpstream.tools('x', 'y');
  const { open, clock, logs } = harness({
    backends: [mcpBackend('good'), mcpBackend('flaky', { listTtlMs: 1000 })],
    upstreams: [good, flaky],
  });
  const cache = await open();
  assert.deepEqual(names(cache), ['good_ok', 'flaky_x', 'flaky_y']);
  flaky.fail('unavailable');
  clock.now = 1000;
  cache.poke();
  await cache.settled();
  assert.deepEqual(names(cache), ['good_ok']);
  assert.deepEqual(cache.approved(), new Set(['good_ok']));
  const status = cache.status().find((s) => s.backend === 'flaky');
  assert.equal(status?.state, 'down');
  assert.equal(status?.tools, 0);
  assert.match(status?.reason ?? '', /^unavailable: flaky: connection refused/);
  const logged = logs.records().find((r) => r.backend === 'flaky' && r.level === 40);
  assert.match(String(logged?.msg), /did not list its tools/);
  assert.match(String(logged?.reason), /unavailable/);
  assert.equal(flaky.attempts, 2);
  // Retried after retryMs (capped by the ttl, here 1 s), not on every request.
  clock.now = 1500;
  cache.poke();
  await cache.settled();
  assert.equal(flaky.attempts, 2);
  flaky.failure = undefined;
  clock.now = 2000;
  cache.poke();
  await cache.settled();
  assert.equal(flaky.attempts, 3);
  assert.deepEqual(names(cache), ['good_ok', 'flaky_x', 'flaky_y']);
  assert.equal(cache.status().find((s) => s.backend === 'flaky')?.state, 'ok');
  cache.close();
});

test('issue 28: an upstream slow at startup does not hold the others; its tools join once it answers', async () => {
  const fast = new ScriptedUpstream('fast');
  fast.items = ScriptedUpstream.tools('a');
  const slow = new ScriptedUpstream('slow');
  slow.items = ScriptedUpstream.tools('b');
  let release!: () => void;
  slow.gate = new Promise<void>((resolve) => (release = resolve));
  const { open, logs } = harness({
    backends: [mcpBackend('fast'), mcpBackend('slow')],
    upstreams: [fast, slow],
    waitMs: 50,
  });
  const started = Date.now();
  const cache = await open();
  assert.ok(Date.now() - started < 1500, 'the startup wait is bounded');
  assert.deepEqual(names(cache), ['fast_a']);
  assert.equal(cache.status().find((s) => s.backend === 'slow')?.state, 'loading');
  assert.match(logs.text, /has not listed its tools yet/);
  const revision = cache.revision;
  release();
  await cache.settled();
  assert.deepEqual(names(cache), ['fast_a', 'slow_b']);
  assert.ok(cache.revision > revision);
  cache.close();
});

test('issue 28 collisions: refused at load with both names (an OpenAPI tool, another upstream)', async () => {
  const openapi = buildCatalogue([
    { backend: 'pay', document: largeDocument(2), injectedHeaders: [] },
  ]);
  const openapiName = openapi.tools[0]?.name as string;
  const up = new ScriptedUpstream('ext');
  up.items = ScriptedUpstream.tools(openapiName, 'fine');
  const h1 = harness({
    backends: [mcpBackend('ext', { toolPrefix: '' })],
    upstreams: [up],
    reserved: openapi.byName,
  });
  await assert.rejects(h1.open(), (error: unknown) => {
    assert.ok(error instanceof GatewayError);
    assert.equal(error.code, 'CATALOGUE_LOAD_FAILED');
    assert.match(
      error.message,
      new RegExp(
        `tool name "${openapiName}" of backend ext \\(upstream tool "${openapiName}"\\) is already the name of a tool of backend pay \\(operation ${openapiName}\\)`,
      ),
    );
    return true;
  });
  assert.equal(up.listening, 0, 'a refused start stops listening');

  const one = new ScriptedUpstream('one');
  const two = new ScriptedUpstream('two');
  const h2 = harness({
    backends: [
      mcpBackend('one', { toolPrefix: 'x_' }),
      mcpBackend('two', { toolPrefix: 'x_same_' }),
    ],
    upstreams: [one, two],
  });
  // x_ + same_tool and x_same_ + tool: the same catalogue name from two upstreams.
  one.items = ScriptedUpstream.tools('same_tool');
  two.items = ScriptedUpstream.tools('tool');
  await assert.rejects(
    h2.open(),
    /"x_same_tool" of backend (one|two) \(upstream tool "(same_tool|tool)"\) is already the name of a tool of backend (one|two)/,
  );
});

test('a collision that appears at a later refresh leaves the newcomer out (logged); the holder keeps its name', async () => {
  const one = new ScriptedUpstream('one');
  one.items = ScriptedUpstream.tools('a');
  const two = new ScriptedUpstream('two');
  two.items = ScriptedUpstream.tools('b');
  const { open, logs } = harness({
    backends: [mcpBackend('one', { toolPrefix: 'p_' }), mcpBackend('two', { toolPrefix: 'p_' })],
    upstreams: [one, two],
  });
  const cache = await open();
  two.items = ScriptedUpstream.tools('b', 'a');
  two.notify(LIST_CHANGED);
  await cache.settled();
  assert.deepEqual(names(cache), ['p_a', 'p_b']);
  assert.equal(cache.tools().find((t) => t.name === 'p_a')?.backend, 'one');
  assert.match(
    logs.text,
    /upstream tool left out: tool name \\"p_a\\" of backend two \(upstream tool \\"a\\"\) is already the name of a tool of backend one/,
  );
  cache.close();
});

test('an open circuit breaker makes the next poke check the list now, not at its ttl', async () => {
  const up = new ScriptedUpstream('cb');
  up.items = ScriptedUpstream.tools('a');
  const { open } = harness({ backends: [mcpBackend('cb')], upstreams: [up] });
  const cache = await open();
  up.circuitOpen = true;
  up.fail('circuit_open');
  cache.poke();
  await cache.settled();
  assert.deepEqual(names(cache), []);
  assert.match(cache.status()[0]?.reason ?? '', /^circuit_open/);
  cache.close();
});

test('issue 28 "overrides … apply unchanged": settings stored by the admin API apply to upstream tools too', async () => {
  const up = new ScriptedUpstream('docs');
  up.items = ScriptedUpstream.tools('search', 'fetch');
  const { open } = harness({
    backends: [mcpBackend('docs', {}, ['docs_search'])],
    upstreams: [up],
  });
  const cache = await open();
  const revision = cache.revision;
  cache.useSettings(
    new Map([
      ['docs_search', { name: 'find', securityClass: 'user-scoped' as const, hidden: { q: 'x' } }],
      ['docs_fetch', { hidden: { nope: 1 } }],
    ]),
  );
  assert.ok(cache.revision > revision);
  const find = cache.tools().find((t) => t.name === 'find');
  assert.equal(find?.mcp?.name, 'search');
  assert.equal(find?.securityClass, 'user-scoped');
  assert.deepEqual(find?.fixedArguments, { q: 'x' });
  assert.deepEqual(names(cache), ['find'], 'a stored hidden argument that does not fit: left out');
  assert.deepEqual(
    [...cache.approved()],
    ['find'],
    'approve names the configured name; the renamed tool stays approved',
  );
  // The next list from the upstream is mapped with the same settings.
  up.notify(LIST_CHANGED);
  await cache.settled();
  assert.deepEqual(names(cache), ['find']);
  cache.useSettings(new Map());
  assert.deepEqual(names(cache), ['docs_search', 'docs_fetch']);
  cache.close();
});
