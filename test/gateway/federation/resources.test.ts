// Issue 28, "Resources and prompts": `resources/list`, `resources/templates/list` and `resources/read` of
// upstream MCP servers offered through the gateway with approval per resource URI prefix
// (`gateway.backends[].mcp.resources.approve`), merged in configuration order, cached like the tool lists,
// routed by URI, filtered by the caller's bundle and subscription; an upstream down drops out.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../../src/config/load.js';
import { GatewayError } from '../../../src/gateway/errors.js';
import {
  FederatedCatalogs,
  type FederatedCatalogsOptions,
} from '../../../src/gateway/federation/federated-catalogs.js';
import {
  templateApproved,
  templateMatches,
  uriApproved,
} from '../../../src/gateway/federation/resources.js';
import type { UpstreamMcp } from '../../../src/gateway/federation/contracts.js';
import {
  InMemoryUpstream,
  bundleScope,
  capturedLogger,
  mcpBackend,
  testCaller,
} from './support/in-memory-upstream.js';

function docsUpstream(name = 'docs'): InMemoryUpstream {
  const up = new InMemoryUpstream(name);
  up.lists.set('resources/list', [
    { uri: 'file:///docs/a.md', name: 'a', title: 'Doc A', mimeType: 'text/markdown' },
    { uri: 'file:///docs/b.md', name: 'b' },
    { uri: 'file:///secret/keys.txt', name: 'keys' },
    { name: 'no uri: unusable' },
  ]);
  up.lists.set('resources/templates/list', [
    { uriTemplate: 'file:///docs/{name}', name: 'doc by name' },
    { uriTemplate: 'file:///{path}', name: 'anything' },
  ]);
  up.answers.set('resources/read', (params) => ({
    contents: [
      {
        uri: params.uri,
        mimeType: 'text/plain',
        text: `from ${up.backend}: ${String(params.uri)}`,
      },
    ],
  }));
  return up;
}

function catalogs(
  upstreams: InMemoryUpstream[],
  backends: FederatedCatalogsOptions['backends'],
  extra: Partial<FederatedCatalogsOptions> = {},
): FederatedCatalogs {
  return new FederatedCatalogs({
    backends,
    upstreams: new Map<string, UpstreamMcp>(upstreams.map((u) => [u.backend, u])),
    pageSize: 100,
    ...extra,
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

async function gatewayError(promise: Promise<unknown>): Promise<GatewayError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof GatewayError, `a GatewayError, not ${String(error)}`);
    return error;
  }
  assert.fail('expected a GatewayError');
}

const uris = (result: Record<string, unknown>) =>
  (result.resources as { uri: string }[]).map((r) => r.uri);

test('URI prefix approval: "" approves every URI; a template is approved only when its literal head is', () => {
  assert.equal(uriApproved('file:///docs/a', ['file:///docs/']), true);
  assert.equal(uriApproved('file:///secret', ['file:///docs/']), false);
  assert.equal(uriApproved('anything:at-all', ['']), true);
  assert.equal(uriApproved('file:///docs/a', []), false);
  assert.equal(templateApproved('file:///docs/{name}', ['file:///docs/']), true);
  // file:///{path} can expand to file:///secret/...: not every URI it makes is approved
  assert.equal(templateApproved('file:///{path}', ['file:///docs/']), false);
});

test('RFC 6570 template matching: simple, reserved, path-segment and query expressions', () => {
  assert.equal(templateMatches('file:///docs/{name}', 'file:///docs/a.md'), true);
  // a simple expansion percent-encodes "/", so it never spans two segments
  assert.equal(templateMatches('file:///docs/{name}', 'file:///docs/x/y.md'), false);
  assert.equal(templateMatches('file:///docs/{+path}', 'file:///docs/x/y.md'), true);
  assert.equal(templateMatches('repo://{owner}/{repo}{/path*}', 'repo://a/b/src/x.ts'), true);
  assert.equal(templateMatches('search://items{?q,limit}', 'search://items?q=x&limit=2'), true);
  assert.equal(templateMatches('search://items{?q,limit}', 'search://other?q=x'), false);
  // literal parts are literal, not regular expressions
  assert.equal(templateMatches('a.b://{x}', 'aXb://y'), false);
});

test('resources/list: approved URIs only, merged in configuration order, the first upstream keeps a URI both list', async () => {
  const docs = docsUpstream('docs');
  const wiki = new InMemoryUpstream('wiki');
  wiki.lists.set('resources/list', [
    { uri: 'wiki://home', name: 'home' },
    { uri: 'file:///docs/a.md', name: 'shadowed copy' },
  ]);
  const service = catalogs(
    [docs, wiki],
    [mcpBackend('docs', { resources: ['file:///docs/'] }), mcpBackend('wiki', { resources: [''] })],
  );
  await service.capabilities(testCaller());
  const answer = await service.listResources(req());
  assert.deepEqual(uris(answer.result), ['file:///docs/a.md', 'file:///docs/b.md', 'wiki://home']);
  const a = (answer.result.resources as Record<string, unknown>[])[0];
  assert.equal(a?.name, 'a', 'the first upstream (configuration order) keeps the URI');
  assert.equal(a?.title, 'Doc A');
  assert.equal(answer.result.nextCursor, undefined);
});

test('resources/list per revision: title is not sent to 2025-03-26 clients (it arrived in 2025-06-18)', async () => {
  const docs = docsUpstream();
  const service = catalogs([docs], [mcpBackend('docs', { resources: ['file:///docs/'] })]);
  await service.capabilities(testCaller());
  const old = await service.listResources(req({}, testCaller(), '2025-03-26'));
  const first = (old.result.resources as Record<string, unknown>[])[0];
  assert.equal(first?.title, undefined);
  assert.equal(first?.mimeType, 'text/markdown');
});

test('paging: the gateway issues its own opaque cursor and refuses one it did not issue', async () => {
  const big = new InMemoryUpstream('big');
  big.lists.set(
    'resources/list',
    Array.from({ length: 5 }, (_, i) => ({ uri: `mem://item/${i}`, name: `item ${i}` })),
  );
  const service = catalogs([big], [mcpBackend('big', { resources: ['mem://'] })], { pageSize: 2 });
  await service.capabilities(testCaller());
  const seen: string[] = [];
  let cursor: unknown;
  let pages = 0;
  do {
    const page = await service.listResources(req(cursor === undefined ? {} : { cursor }));
    seen.push(...uris(page.result));
    cursor = page.result.nextCursor;
    pages++;
  } while (cursor !== undefined);
  assert.equal(pages, 3);
  assert.deepEqual(
    seen,
    [0, 1, 2, 3, 4].map((i) => `mem://item/${i}`),
  );
  assert.equal(
    big.listCalls.filter((m) => m === 'resources/list').length,
    1,
    'pages share one fetch',
  );
  const bad = await gatewayError(service.listResources(req({ cursor: 'not-ours' })));
  assert.equal(bad.code, 'INVALID_CURSOR');
  const notString = await gatewayError(service.listResources(req({ cursor: 7 })));
  assert.equal(notString.code, 'INVALID_CURSOR');
});

test('caching: a list is reused for mcp.listTtlMs (or the upstream ttlMs), refetched after it or after list_changed', async () => {
  const clock = { now: 1_000_000 };
  const docs = docsUpstream();
  const service = catalogs([docs], [mcpBackend('docs', { resources: [''], listTtlMs: 10_000 })], {
    now: () => clock.now,
  });
  await service.capabilities(testCaller());
  const fetches = () => docs.listCalls.filter((m) => m === 'resources/list').length;
  await service.listResources(req());
  await service.listResources(req());
  assert.equal(fetches(), 1);
  clock.now += 10_001;
  await service.listResources(req());
  assert.equal(fetches(), 2, 'refetched once mcp.listTtlMs passed');
  docs.lists.get('resources/list')?.push({ uri: 'file:///docs/new.md', name: 'new' });
  assert.equal(
    uris((await service.listResources(req())).result).includes('file:///docs/new.md'),
    false,
  );
  docs.notify('notifications/resources/list_changed');
  const fresh = await service.listResources(req());
  assert.equal(fetches(), 3);
  assert.ok(uris(fresh.result).includes('file:///docs/new.md'), 'list_changed refreshes the list');
  // the upstream's own ttlMs wins over the configured one
  docs.listTtlMs = 500;
  docs.notify('notifications/resources/list_changed');
  const short = await service.listResources(req());
  assert.equal(short.ttlMs, 500);
  clock.now += 501;
  await service.listResources(req());
  assert.equal(fetches(), 5);
});

test('resources/read: routed to the upstream that listed the URI or whose approved template matches; first in configuration order', async () => {
  const docs = docsUpstream('docs');
  const mirror = docsUpstream('mirror');
  const service = catalogs(
    [docs, mirror],
    [
      mcpBackend('docs', { resources: ['file:///docs/'] }),
      mcpBackend('mirror', { resources: ['file:///docs/'] }),
    ],
  );
  await service.capabilities(testCaller());
  const listed = await service.readResource(req({ uri: 'file:///docs/a.md' }));
  assert.deepEqual(listed.result.contents, [
    { uri: 'file:///docs/a.md', mimeType: 'text/plain', text: 'from docs: file:///docs/a.md' },
  ]);
  assert.equal(listed.cacheScope, 'private');
  const templated = await service.readResource(req({ uri: 'file:///docs/unlisted.md' }));
  assert.match(
    String((templated.result.contents as { text: string }[])[0]?.text),
    /^from docs: /,
    'a URI only the template covers goes to the first upstream whose template matches',
  );
  assert.deepEqual(
    docs.requests.map((r) => [r.method, r.params.uri]),
    [
      ['resources/read', 'file:///docs/a.md'],
      ['resources/read', 'file:///docs/unlisted.md'],
    ],
  );
  assert.equal(mirror.requests.length, 0);
});

test('resources/read of an unapproved or unknown URI: UNKNOWN_RESOURCE with data.uri, never forwarded', async () => {
  const docs = docsUpstream();
  const service = catalogs([docs], [mcpBackend('docs', { resources: ['file:///docs/'] })]);
  await service.capabilities(testCaller());
  // listed by the upstream (and matching its file:///{path} template) but outside the approved prefix
  const secret = await gatewayError(service.readResource(req({ uri: 'file:///secret/keys.txt' })));
  assert.equal(secret.code, 'UNKNOWN_RESOURCE');
  assert.equal(secret.rpcCode, -32002);
  assert.deepEqual(secret.data, { uri: 'file:///secret/keys.txt' });
  const unknown = await gatewayError(service.readResource(req({ uri: 'other://x' })));
  assert.equal(unknown.code, 'UNKNOWN_RESOURCE');
  assert.equal(docs.requests.length, 0, 'nothing was forwarded');
  const missing = await gatewayError(service.readResource(req({})));
  assert.equal(missing.code, 'INVALID_PARAMS');
  assert.match(missing.message, /"uri"/);
  const long = await gatewayError(
    service.readResource(req({ uri: `file:///docs/${'x'.repeat(9000)}` })),
  );
  assert.equal(long.code, 'INVALID_PARAMS');
  assert.match(long.message, /longer than 8192/);
});

test('resources/templates/list: only templates whose every expansion is approved; an upstream without templates has none', async () => {
  const docs = docsUpstream();
  const plain = new InMemoryUpstream('plain');
  plain.lists.set('resources/list', [{ uri: 'plain://x', name: 'x' }]);
  const service = catalogs(
    [docs, plain],
    [
      mcpBackend('docs', { resources: ['file:///docs/'] }),
      mcpBackend('plain', { resources: [''] }),
    ],
  );
  await service.capabilities(testCaller());
  const answer = await service.listResourceTemplates(req());
  assert.deepEqual(
    (answer.result.resourceTemplates as { uriTemplate: string }[]).map((t) => t.uriTemplate),
    ['file:///docs/{name}'],
  );
  // "method not found" for templates means none, not down: plain's resources are still listed and read
  assert.ok(uris((await service.listResources(req())).result).includes('plain://x'));
});

test('an upstream down: its resources drop out (logged once), the others are listed; its reads get UPSTREAM_UNAVAILABLE', async () => {
  const docs = docsUpstream('docs');
  const wiki = new InMemoryUpstream('wiki');
  wiki.lists.set('resources/list', [{ uri: 'wiki://home', name: 'home' }]);
  const { logger, capture } = capturedLogger();
  const service = catalogs(
    [docs, wiki],
    [
      mcpBackend('docs', { resources: ['file:///docs/'] }),
      mcpBackend('wiki', { resources: ['wiki://'] }),
    ],
    { logger, now: () => 0 },
  );
  await service.capabilities(testCaller());
  docs.takeDown();
  const first = await service.listResources(req());
  await service.listResources(req());
  assert.deepEqual(uris(first.result), ['wiki://home']);
  assert.equal(first.ttlMs, 0, 'a list missing a down upstream is not worth caching');
  const downLines = capture
    .records()
    .filter((r) => String(r.msg).startsWith('upstream list unavailable'));
  assert.equal(
    downLines.filter((r) => r.method === 'resources/list').length,
    1,
    'logged once, not per request',
  );
  const read = await gatewayError(service.readResource(req({ uri: 'file:///docs/a.md' })));
  assert.equal(read.code, 'UPSTREAM_UNAVAILABLE');
  assert.equal((read.data as { backend: string }).backend, 'docs');
  assert.doesNotMatch(read.message, /10\.0\.0\.9/, 'the upstream address is not shown');
  // back up: its resources return with the next list
  docs.down = undefined;
  assert.deepEqual(uris((await service.listResources(req())).result), [
    'file:///docs/a.md',
    'file:///docs/b.md',
    'wiki://home',
  ]);
});

test('an upstream JSON-RPC error: UPSTREAM_ERROR with its message, the upstream address masked; -32002 stays "resource not found"', async () => {
  const docs = docsUpstream();
  const service = catalogs(
    [docs],
    [mcpBackend('docs', { resources: ['file:///docs/'], url: 'http://10.0.0.9:7001/mcp' })],
  );
  await service.capabilities(testCaller());
  await service.listResources(req());
  docs.rpcError = { code: -32603, message: 'backend http://10.0.0.9:7001/mcp exploded' };
  const failed = await gatewayError(service.readResource(req({ uri: 'file:///docs/a.md' })));
  assert.equal(failed.code, 'UPSTREAM_ERROR');
  assert.match(failed.message, /exploded/);
  assert.doesNotMatch(failed.message, /10\.0\.0\.9/);
  assert.deepEqual(failed.data, { backend: 'docs', code: -32603 });
  docs.rpcError = { code: -32002, message: 'Resource not found' };
  const gone = await gatewayError(service.readResource(req({ uri: 'file:///docs/a.md' })));
  assert.equal(gone.code, 'UNKNOWN_RESOURCE');
  assert.equal((gone.data as { uri: string }).uri, 'file:///docs/a.md');
});

test("identity: a read carries the caller's credentials for that upstream; a sign-in is answered without reaching it", async () => {
  const docs = docsUpstream();
  let answer: 'headers' | 'sign-in' = 'headers';
  const service = catalogs([docs], [mcpBackend('docs', { resources: ['file:///docs/'] })], {
    identity: async (caller, backend) =>
      answer === 'headers'
        ? {
            kind: 'headers',
            headers: {
              authorization: `Bearer user-token-of-${caller.subscription.id}-at-${backend}`,
            },
          }
        : {
            kind: 'sign-in',
            backend,
            url: 'https://gw.example/federation/sign-in/docs',
            message: 'Sign in to docs to let the agent read your documents.',
            elicitationId: 'el-1',
          },
  });
  await service.capabilities(testCaller());
  await service.readResource({
    ...req({ uri: 'file:///docs/a.md' }),
    traceparent: '00-abc-def-01',
  });
  assert.deepEqual(docs.requests[0]?.options, {
    traceparent: '00-abc-def-01',
    headers: { authorization: 'Bearer user-token-of-sub-1-at-docs' },
  });
  answer = 'sign-in';
  const plain = await gatewayError(service.readResource(req({ uri: 'file:///docs/a.md' })));
  assert.equal(plain.code, 'UPSTREAM_UNAVAILABLE');
  assert.match(plain.message, /https:\/\/gw\.example\/federation\/sign-in\/docs/);
  assert.deepEqual(plain.data, {
    backend: 'docs',
    reason: 'sign_in_required',
    url: 'https://gw.example/federation/sign-in/docs',
    elicitationId: 'el-1',
  });
  // a 2025-11-25 request declaring URL-mode elicitation gets the elicitation error (-32042)
  const meta = {
    _meta: { 'io.modelcontextprotocol/clientCapabilities': { elicitation: { url: {} } } },
  };
  const elicit = await gatewayError(
    service.readResource(req({ uri: 'file:///docs/a.md', ...meta })),
  );
  assert.equal(elicit.code, 'URL_ELICITATION_REQUIRED');
  assert.deepEqual((elicit.data as { elicitations: unknown[] }).elicitations, [
    {
      mode: 'url',
      elicitationId: 'el-1',
      url: 'https://gw.example/federation/sign-in/docs',
      message: 'Sign in to docs to let the agent read your documents.',
    },
  ]);
  assert.equal(docs.requests.length, 1, "no request reached the upstream without the user's token");
});

test('visibility: a bundle sees its URI prefixes only; a subscription limited to some tools sees the upstreams of those tools', async () => {
  const docs = docsUpstream('docs');
  const wiki = new InMemoryUpstream('wiki');
  wiki.lists.set('resources/list', [{ uri: 'wiki://home', name: 'home' }]);
  const tools = new Map([
    ['wiki_search', 'wiki'],
    ['getPayment', 'payments'],
  ]);
  const service = catalogs(
    [docs, wiki],
    [
      mcpBackend('docs', { resources: ['file:///docs/'] }),
      mcpBackend('wiki', { resources: ['wiki://'] }),
    ],
    { toolBackend: (t) => tools.get(t) },
  );
  const bundled = testCaller('all', bundleScope(['file:///docs/a']));
  await service.capabilities(bundled);
  assert.deepEqual(uris((await service.listResources(req({}, bundled))).result), [
    'file:///docs/a.md',
  ]);
  const outside = await gatewayError(
    service.readResource(req({ uri: 'file:///docs/b.md' }, bundled)),
  );
  assert.equal(outside.code, 'UNKNOWN_RESOURCE');

  const limited = testCaller(new Set(['wiki_search', 'getPayment']));
  const answer = await service.listResources(req({}, limited));
  assert.deepEqual(uris(answer.result), ['wiki://home']);
  assert.equal(answer.cacheScope, 'private', 'a limited subscription gets a list of its own');
  const hidden = await gatewayError(
    service.readResource(req({ uri: 'file:///docs/a.md' }, limited)),
  );
  assert.equal(hidden.code, 'UNKNOWN_RESOURCE');
  assert.equal(docs.requests.length, 0);
  assert.deepEqual(await service.capabilities(testCaller(new Set(['getPayment']))), {
    resources: false,
    prompts: false,
  });
});

test('capabilities: resources only when an upstream declared them and its backend approves a prefix', async () => {
  const docs = docsUpstream();
  const approving = catalogs([docs], [mcpBackend('docs', { resources: ['file:///docs/'] })]);
  assert.deepEqual(await approving.capabilities(testCaller()), { resources: true, prompts: false });
  const approvesNothing = catalogs([docs], [mcpBackend('docs', { prompts: [] })]);
  assert.deepEqual(await approvesNothing.capabilities(testCaller()), {
    resources: false,
    prompts: false,
  });
  const quiet = docsUpstream();
  quiet.capabilities = { tools: {} };
  const undeclared = catalogs([quiet], [mcpBackend('docs', { resources: [''] })]);
  assert.deepEqual(await undeclared.capabilities(testCaller()), {
    resources: false,
    prompts: false,
  });
  // a bundle offering no resources does not declare them
  assert.equal((await approving.capabilities(testCaller('all', bundleScope([])))).resources, false);
  // what an upstream declared is kept while it is down
  docs.takeDown();
  assert.equal((await approving.capabilities(testCaller())).resources, true);
});

test('configuration: gateway.backends as loaded (schema defaults) drive the catalogs; OpenAPI backends take no part', async () => {
  const config = loadConfig({
    env: {},
    overrides: {
      gateway: {
        backends: [
          { name: 'pay', baseUrl: 'http://127.0.0.1:9/v1', openapi: { file: 'x.yaml' } },
          {
            name: 'docs',
            mcp: { url: 'http://127.0.0.1:9/mcp', resources: { approve: ['file:///docs/'] } },
          },
          { name: 'quiet', mcp: { url: 'http://127.0.0.1:9/quiet' } },
        ],
      },
    },
  });
  const docs = docsUpstream('docs');
  const quiet = docsUpstream('quiet');
  const service = catalogs([docs, quiet], config.gateway.backends);
  // quiet approves nothing by default (resources.approve and prompts.approve default to [])
  assert.deepEqual(await service.capabilities(testCaller()), { resources: true, prompts: false });
  assert.deepEqual(uris((await service.listResources(req())).result), [
    'file:///docs/a.md',
    'file:///docs/b.md',
  ]);
  assert.equal(
    quiet.listCalls.length,
    0,
    'an upstream approving nothing is never asked for its lists',
  );
  assert.equal(quiet.serverCalls, 0, 'nor for its capabilities');
  assert.equal(docs.serverCalls, 1);
});

test('capabilities: once an upstream has declared, a slow upstream does not delay initialize (asked again in the background)', async () => {
  const docs = docsUpstream();
  const service = catalogs([docs], [mcpBackend('docs', { resources: [''] })]);
  assert.equal((await service.capabilities(testCaller())).resources, true);
  let asked = 0;
  docs.server = () => {
    asked++;
    return new Promise(() => undefined); // never answers
  };
  assert.equal((await service.capabilities(testCaller())).resources, true);
  assert.equal((await service.capabilities(testCaller())).resources, true);
  assert.equal(asked, 1, 'one question at a time, not one per request');
});
