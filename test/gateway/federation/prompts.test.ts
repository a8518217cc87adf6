// Issue 28, "Resources and prompts": `prompts/list` and `prompts/get` of upstream MCP servers offered
// through the gateway, approved per prompt (`gateway.backends[].mcp.prompts.approve`), renamed with the
// backend's tool prefix (`toolPrefixOf`) and stripped of it on the way back, arguments checked before the
// upstream is reached; filtered by bundle; an upstream down drops out.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GatewayError } from '../../../src/gateway/errors.js';
import { FederatedCatalogs } from '../../../src/gateway/federation/federated-catalogs.js';
import { checkPromptArguments } from '../../../src/gateway/federation/prompts.js';
import type { UpstreamMcp } from '../../../src/gateway/federation/contracts.js';
import {
  InMemoryUpstream,
  bundleScope,
  mcpBackend,
  testCaller,
} from './support/in-memory-upstream.js';

function promptUpstream(name: string): InMemoryUpstream {
  const up = new InMemoryUpstream(name);
  up.lists.set('prompts/list', [
    {
      name: 'review',
      title: 'Code review',
      description: 'Review a change',
      arguments: [
        { name: 'diff', description: 'the change', required: true },
        { name: 'tone', required: false },
      ],
    },
    { name: 'greet', arguments: [{ name: 'who', required: true }] },
    { name: 'internal-only' },
  ]);
  up.answers.set('prompts/get', (params) => ({
    description: `${up.backend} prompt ${String(params.name)}`,
    messages: [
      {
        role: 'user',
        content: { type: 'text', text: JSON.stringify(params.arguments) },
      },
    ],
  }));
  return up;
}

function service(
  upstreams: InMemoryUpstream[],
  backends: ReturnType<typeof mcpBackend>[],
): FederatedCatalogs {
  return new FederatedCatalogs({
    backends,
    upstreams: new Map<string, UpstreamMcp>(upstreams.map((u) => [u.backend, u])),
    pageSize: 100,
  });
}

const req = (
  params: Record<string, unknown> = {},
  caller = testCaller(),
  version = '2025-11-25',
) => ({
  caller,
  params,
  version,
});

const names = (result: Record<string, unknown>) =>
  (result.prompts as { name: string }[]).map((p) => p.name);

async function gatewayError(promise: Promise<unknown>): Promise<GatewayError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof GatewayError, `a GatewayError, not ${String(error)}`);
    return error;
  }
  assert.fail('expected a GatewayError');
}

test('prompts/list: approved prompts only, renamed with the backend\'s tool prefix (default "<backend>_", or mcp.toolPrefix)', async () => {
  const code = promptUpstream('code');
  const chat = promptUpstream('chat');
  const catalogs = service(
    [code, chat],
    [
      mcpBackend('code', { prompts: ['review'] }),
      mcpBackend('chat', { prompts: 'all', toolPrefix: 'c-' }),
    ],
  );
  await catalogs.capabilities(testCaller());
  const answer = await catalogs.listPrompts(req());
  assert.deepEqual(names(answer.result), ['code_review', 'c-review', 'c-greet', 'c-internal-only']);
  const review = (answer.result.prompts as Record<string, unknown>[])[0];
  assert.deepEqual(review, {
    name: 'code_review',
    title: 'Code review',
    description: 'Review a change',
    arguments: [
      { name: 'diff', description: 'the change', required: true },
      { name: 'tone', required: false },
    ],
  });
  const old = await catalogs.listPrompts(req({}, testCaller(), '2025-03-26'));
  assert.equal((old.result.prompts as Record<string, unknown>[])[0]?.title, undefined);
});

test('prompts/get strips the prefix: the upstream gets its own name and the checked arguments', async () => {
  const code = promptUpstream('code');
  const catalogs = service([code], [mcpBackend('code', { prompts: 'all' })]);
  await catalogs.capabilities(testCaller());
  const answer = await catalogs.getPrompt(
    req({ name: 'code_review', arguments: { diff: '+x', tone: 'kind' } }),
  );
  assert.deepEqual(
    code.requests.map((r) => [r.method, r.params]),
    [['prompts/get', { name: 'review', arguments: { diff: '+x', tone: 'kind' } }]],
  );
  assert.deepEqual(answer.result, {
    description: 'code prompt review',
    messages: [{ role: 'user', content: { type: 'text', text: '{"diff":"+x","tone":"kind"}' } }],
  });
});

test('prompts/get arguments are checked before the upstream is reached: required present, strings, declared', async () => {
  const code = promptUpstream('code');
  const catalogs = service([code], [mcpBackend('code', { prompts: 'all' })]);
  await catalogs.capabilities(testCaller());
  const missing = await gatewayError(
    catalogs.getPrompt(req({ name: 'code_review', arguments: { tone: 'x' } })),
  );
  assert.equal(missing.code, 'INVALID_PARAMS');
  assert.match(missing.message, /requires the argument "diff"/);
  assert.deepEqual(missing.data, { prompt: 'code_review', missing: ['diff'] });
  const notString = await gatewayError(
    catalogs.getPrompt(req({ name: 'code_review', arguments: { diff: 42 } })),
  );
  assert.match(notString.message, /argument "diff" of prompt code_review must be a string/);
  const unknown = await gatewayError(
    catalogs.getPrompt(req({ name: 'code_review', arguments: { diff: 'x', color: 'red' } })),
  );
  assert.match(unknown.message, /has no argument "color"/);
  const notObject = await gatewayError(
    catalogs.getPrompt(req({ name: 'code_review', arguments: ['x'] })),
  );
  assert.match(notObject.message, /"arguments" must be an object/);
  assert.equal(code.requests.length, 0, 'none of these reached the upstream');
  // absent arguments are fine for a prompt with no required ones
  assert.deepEqual(checkPromptArguments('p', [{ name: 'a', required: false }], undefined), {});
});

test('prompts/get of an unapproved, unknown or unprefixed prompt: UNKNOWN_PROMPT, never forwarded', async () => {
  const code = promptUpstream('code');
  const catalogs = service([code], [mcpBackend('code', { prompts: ['review'] })]);
  await catalogs.capabilities(testCaller());
  for (const name of ['code_greet', 'code_nothing', 'review', 'other_review']) {
    const error = await gatewayError(catalogs.getPrompt(req({ name, arguments: { who: 'x' } })));
    assert.equal(error.code, 'UNKNOWN_PROMPT', name);
    assert.deepEqual(error.data, { prompt: name });
  }
  const noName = await gatewayError(catalogs.getPrompt(req({})));
  assert.equal(noName.code, 'INVALID_PARAMS');
  assert.equal(code.requests.length, 0);
});

test('prompts: list_changed refreshes the cached list; a bundle sees its prompt names only', async () => {
  const code = promptUpstream('code');
  const catalogs = service([code], [mcpBackend('code', { prompts: 'all' })]);
  await catalogs.capabilities(testCaller());
  await catalogs.listPrompts(req());
  code.lists.set('prompts/list', [{ name: 'fresh' }]);
  assert.deepEqual(names((await catalogs.listPrompts(req())).result).length, 3, 'cached');
  code.notify('notifications/prompts/list_changed');
  assert.deepEqual(names((await catalogs.listPrompts(req())).result), ['code_fresh']);
  // a resources notification leaves the prompt list alone
  code.notify('notifications/resources/list_changed');
  await catalogs.listPrompts(req());
  assert.equal(code.listCalls.filter((m) => m === 'prompts/list').length, 2);

  const bundled = testCaller('all', bundleScope([], ['code_fresh', 'code_missing']));
  assert.deepEqual(names((await catalogs.listPrompts(req({}, bundled))).result), ['code_fresh']);
  const outside = testCaller('all', bundleScope([], ['something_else']));
  assert.deepEqual(names((await catalogs.listPrompts(req({}, outside))).result), []);
  const refused = await gatewayError(catalogs.getPrompt(req({ name: 'code_fresh' }, outside)));
  assert.equal(refused.code, 'UNKNOWN_PROMPT');
  assert.deepEqual(await catalogs.capabilities(testCaller('all', bundleScope([], []))), {
    resources: false,
    prompts: false,
  });
});

test('an upstream down: its prompts drop out of the list; prompts/get gets UPSTREAM_UNAVAILABLE naming the backend', async () => {
  const code = promptUpstream('code');
  const chat = promptUpstream('chat');
  const catalogs = service(
    [code, chat],
    [mcpBackend('code', { prompts: 'all' }), mcpBackend('chat', { prompts: ['greet'] })],
  );
  await catalogs.capabilities(testCaller());
  code.takeDown('timeout');
  assert.deepEqual(names((await catalogs.listPrompts(req())).result), ['chat_greet']);
  const error = await gatewayError(
    catalogs.getPrompt(req({ name: 'code_review', arguments: { diff: 'x' } })),
  );
  assert.equal(error.code, 'UPSTREAM_UNAVAILABLE');
  assert.equal(error.rpcCode, -31056);
  assert.deepEqual(error.data, { backend: 'code', reason: 'timeout' });
  // the other upstream still answers
  const greet = await catalogs.getPrompt(req({ name: 'chat_greet', arguments: { who: 'Ana' } }));
  assert.equal(greet.result.description, 'chat prompt greet');
  // an upstream JSON-RPC error on get is passed on as UPSTREAM_ERROR
  chat.rpcError = { code: -32602, message: 'who must be a known person' };
  const rpc = await gatewayError(
    catalogs.getPrompt(req({ name: 'chat_greet', arguments: { who: 'X' } })),
  );
  assert.equal(rpc.code, 'UPSTREAM_ERROR');
  assert.match(rpc.message, /who must be a known person/);
});

test('capabilities: prompts only when an upstream declared them and its backend approves at least one', async () => {
  const code = promptUpstream('code');
  assert.deepEqual(
    await service([code], [mcpBackend('code', { prompts: ['review'] })]).capabilities(testCaller()),
    { resources: false, prompts: true },
  );
  assert.equal(
    (await service([code], [mcpBackend('code', { prompts: [] })]).capabilities(testCaller()))
      .prompts,
    false,
  );
  const silent = promptUpstream('code');
  silent.capabilities = { resources: {} };
  assert.equal(
    (await service([silent], [mcpBackend('code', { prompts: 'all' })]).capabilities(testCaller()))
      .prompts,
    false,
  );
});
