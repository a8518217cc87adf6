// The gateway's MCP client of one upstream (issue 28: "the gateway is an MCP client of the upstream
// (Streamable HTTP; the upstream's revision negotiated ...)"), against a real TypeScript-SDK server
// (support/sdk-upstream.ts) in each of its shapes: stateful or stateless, JSON or SSE answers.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { pino, type Logger } from 'pino';
import * as z from 'zod';
import { McpUpstreamClient } from '../../../src/gateway/federation/mcp-client.js';
import { UpstreamError } from '../../../src/gateway/federation/contracts.js';
import { startSdkUpstream, DEFAULT_TOOLS, type SdkUpstream } from './support/sdk-upstream.js';
import { mcpBackend } from './support/upstream-backend.js';
import { freePort } from '../../helpers/free-port.js';

const cleanups: (() => Promise<void>)[] = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function upstream(
  options: Parameters<typeof startSdkUpstream>[0] = {},
): Promise<SdkUpstream> {
  const started = await startSdkUpstream(options);
  cleanups.push(() => started.close());
  return started;
}

function client(...args: ConstructorParameters<typeof McpUpstreamClient>): McpUpstreamClient {
  const made = new McpUpstreamClient(...args);
  cleanups.push(() => made.close());
  return made;
}

function capturingLogger(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  const logger: Logger = pino({ level: 'debug' }, stream);
  return { logger, lines };
}

async function rejection(promise: Promise<unknown>): Promise<UpstreamError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof UpstreamError, `expected an UpstreamError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected the request to fail');
}

for (const stateful of [true, false])
  for (const json of [true, false])
    test(`Streamable HTTP, ${stateful ? 'stateful' : 'stateless'} server answering ${json ? 'application/json' : 'SSE'}: negotiates 2025-11-25 after server/discover fails, lists and calls tools, resources and prompts (MCP 2025-11-25 Transports; issue 28)`, async () => {
      const server = await upstream({ stateful, json });
      const mcp = client(mcpBackend('sdk', server.url));
      const declared = await mcp.server();
      assert.equal(declared.protocolVersion, '2025-11-25');
      assert.deepEqual(declared.serverInfo, { name: 'sdk-upstream', version: '1.0.0' });
      assert.ok('tools' in declared.capabilities && 'resources' in declared.capabilities);
      // Negotiation order: the 2026-07-28 discovery first, then initialize and its notification.
      assert.deepEqual(
        server.calls.slice(0, 3).map((c) => c.method),
        ['server/discover', 'initialize', 'notifications/initialized'],
      );

      const tools = await mcp.listAll('tools/list', 'tools');
      assert.deepEqual(
        tools.items.map((t) => t.name).sort(),
        DEFAULT_TOOLS.map((t) => t.name).sort(),
      );
      const add = tools.items.find((t) => t.name === 'add');
      assert.ok(add !== undefined && typeof add.outputSchema === 'object');

      const echoed = await mcp.request('tools/call', {
        name: 'echo',
        arguments: { message: 'hi' },
      });
      assert.deepEqual(echoed.content, [{ type: 'text', text: 'echo: hi' }]);
      const sum = await mcp.request('tools/call', { name: 'add', arguments: { a: 2, b: 40 } });
      assert.deepEqual(sum.structuredContent, { sum: 42 });

      const resources = await mcp.listAll('resources/list', 'resources');
      assert.deepEqual(
        resources.items.map((r) => r.uri),
        ['info://server'],
      );
      const templates = await mcp.listAll('resources/templates/list', 'resourceTemplates');
      assert.deepEqual(
        templates.items.map((r) => r.uriTemplate),
        ['item://{id}'],
      );
      const read = await mcp.request('resources/read', { uri: 'item://7' });
      assert.deepEqual(read.contents, [{ uri: 'item://7', text: '{"id":"7"}' }]);
      const prompts = await mcp.listAll('prompts/list', 'prompts');
      assert.deepEqual(
        prompts.items.map((p) => p.name),
        ['greet'],
      );
      const prompt = await mcp.request('prompts/get', {
        name: 'greet',
        arguments: { name: 'Ada' },
      });
      assert.deepEqual(prompt.messages, [
        { role: 'user', content: { type: 'text', text: 'Hello, Ada!' } },
      ]);

      // After initialize every request carries the negotiated revision (2025-06-18+ "Protocol Version
      // Header"), and the session id exactly when the server gave one.
      const after = server.calls.slice(2).filter((c) => c.httpMethod === 'POST');
      for (const call of after) assert.equal(call.headers['mcp-protocol-version'], '2025-11-25');
      const ids = new Set(after.map((c) => c.sessionId));
      if (stateful) {
        assert.equal(ids.size, 1);
        assert.deepEqual([...ids], server.sessionIds());
      } else assert.deepEqual([...ids], [undefined]);
    });

test('a pinned mcp.protocolVersion is offered alone: no server/discover, initialize with 2025-06-18 (issue 28: revision negotiated or pinned)', async () => {
  const server = await upstream();
  const mcp = client(mcpBackend('pinned', server.url, { mcp: { protocolVersion: '2025-06-18' } }));
  assert.equal((await mcp.server()).protocolVersion, '2025-06-18');
  await mcp.request('tools/list', {});
  const posts = server.calls.filter((c) => c.httpMethod === 'POST');
  assert.deepEqual(
    posts.map((c) => c.method),
    ['initialize', 'notifications/initialized', 'tools/list'],
  );
  assert.equal(posts[2]?.headers['mcp-protocol-version'], '2025-06-18');
});

test('a pinned 2026-07-28 against a server that does not speak it is a protocol failure, not a silent downgrade', async () => {
  const server = await upstream();
  const mcp = client(mcpBackend('modern', server.url, { mcp: { protocolVersion: '2026-07-28' } }));
  const error = await rejection(mcp.server());
  assert.equal(error.reason, 'protocol');
  assert.match(error.message, /2026-07-28/);
});

test('a 404 to a request with a session re-initializes once and retries (Streamable HTTP, Session Management)', async () => {
  const server = await upstream({ stateful: true });
  const { logger, lines } = capturingLogger();
  const mcp = client(mcpBackend('sessions', server.url), { logger });
  await mcp.request('tools/list', {});
  const [first] = server.sessionIds();
  await server.forgetSessions();
  const result = await mcp.request('tools/call', { name: 'echo', arguments: { message: 'again' } });
  assert.deepEqual(result.content, [{ type: 'text', text: 'echo: again' }]);
  const calls = server.calls.filter(
    (c) => c.httpMethod === 'POST' && c.method !== 'server/discover',
  );
  const refused = calls.findIndex((c) => c.refusedWith === 404);
  assert.ok(refused > 0, 'the old session was refused with 404');
  assert.equal(calls[refused]?.sessionId, first);
  assert.deepEqual(
    calls.slice(refused + 1).map((c) => c.method),
    ['initialize', 'notifications/initialized', 'tools/call'],
  );
  const [second] = server.sessionIds();
  assert.notEqual(second, first);
  assert.equal(calls.at(-1)?.sessionId, second);
  assert.ok(lines.some((l) => l.includes('session expired')));
});

test("two credentials get two sessions, never one another's; the least recently used closes with DELETE beyond maxSessions (issue 28: \"never the gateway's own credentials for one user's call to another user's data\")", async () => {
  const server = await upstream({ stateful: true });
  const mcp = client(mcpBackend('users', server.url, { mcp: { maxSessions: 2 } }));
  const alice = { headers: { Authorization: 'Bearer alice-token-1111' } };
  const bob = { headers: { Authorization: 'Bearer bob-token-2222' } };
  const carol = { headers: { Authorization: 'Bearer carol-token-3333' } };
  await mcp.request('tools/list', {}, alice);
  await mcp.request('tools/list', {}, bob);
  await mcp.request('tools/call', { name: 'echo', arguments: { message: 'a' } }, alice);
  await mcp.request('tools/call', { name: 'echo', arguments: { message: 'b' } }, bob);

  const byCredential = new Map<string, Set<string | undefined>>();
  for (const call of server.calls.filter((c) => c.sessionId !== undefined)) {
    const auth = String(call.headers.authorization);
    byCredential.set(auth, (byCredential.get(auth) ?? new Set()).add(call.sessionId));
  }
  const aliceSessions = byCredential.get('Bearer alice-token-1111');
  const bobSessions = byCredential.get('Bearer bob-token-2222');
  assert.equal(aliceSessions?.size, 1);
  assert.equal(bobSessions?.size, 1);
  assert.notDeepEqual([...aliceSessions], [...bobSessions]);
  assert.equal(server.sessionIds().length, 2);

  // Carol's session is the third: Alice's (least recently used since Bob's last call) is closed.
  await mcp.request('tools/list', {}, carol);
  const deadline = Date.now() + 2000;
  while (!server.calls.some((c) => c.httpMethod === 'DELETE') && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 20));
  const deleted = server.calls.filter((c) => c.httpMethod === 'DELETE');
  assert.equal(deleted.length, 1);
  assert.equal(deleted[0]?.headers.authorization, 'Bearer alice-token-1111');
  assert.deepEqual(deleted[0]?.sessionId, [...aliceSessions][0]);
});

test('static mcp.headers go with every request, per-request headers beside them, traceparent passed on; protocol headers cannot be overridden', async () => {
  const server = await upstream({ stateful: true });
  const mcp = client(
    mcpBackend('headers', server.url, { mcp: { headers: { 'X-Upstream-Key': 'backend-key' } } }),
  );
  const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
  await mcp.request(
    'tools/list',
    {},
    {
      headers: { 'X-User': 'u1', 'Mcp-Session-Id': 'forged' },
      traceparent,
    },
  );
  for (const call of server.calls) assert.equal(call.headers['x-upstream-key'], 'backend-key');
  const list = server.calls.find((c) => c.method === 'tools/list');
  assert.equal(list?.headers['x-user'], 'u1');
  assert.equal(list?.headers.traceparent, traceparent);
  assert.notEqual(list?.sessionId, 'forged');
  assert.deepEqual(server.sessionIds(), [list?.sessionId]);
});

test('HTTP 401 is reason unauthorized with the WWW-Authenticate header; logs carry no credential (RFC 6750 §3, RFC 9728 §5.1)', async () => {
  const challenge =
    'Bearer resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource", error="invalid_token"';
  const server = await upstream({
    authorize: (headers) =>
      headers.authorization === 'Bearer good-secret-0001' ? true : { wwwAuthenticate: challenge },
  });
  const { logger, lines } = capturingLogger();
  const mcp = client(mcpBackend('auth', server.url), { logger });
  const refused = await rejection(
    mcp.request('tools/list', {}, { headers: { Authorization: 'Bearer wrong-secret-9999' } }),
  );
  assert.equal(refused.reason, 'unauthorized');
  assert.equal(refused.wwwAuthenticate, challenge);
  assert.doesNotMatch(refused.message, /wrong-secret/);
  const ok = await mcp.request(
    'tools/list',
    {},
    { headers: { Authorization: 'Bearer good-secret-0001' } },
  );
  assert.ok(Array.isArray(ok.tools));
  assert.ok(lines.some((l) => l.includes('negotiated')));
  for (const line of lines) assert.doesNotMatch(line, /secret-0001|secret-9999/);
});

test("a JSON-RPC error answer is reason rpc with the upstream's error object (JSON-RPC 2.0 §5.1)", async () => {
  const server = await upstream({ stateful: false, json: true });
  const mcp = client(mcpBackend('rpc', server.url));
  const error = await rejection(mcp.request('no/such-method', {}));
  assert.equal(error.reason, 'rpc');
  assert.equal(error.rpc?.code, -32601);
  assert.match(error.rpc?.message ?? '', /not found/i);
});

test('the total timeout ends a slow call as reason timeout (issue 28: "one upstream down or slow never breaks ...")', async () => {
  const server = await upstream({ stateful: true, json: false });
  const mcp = client(mcpBackend('slow', server.url, { timeouts: { totalMs: 600 } }));
  await mcp.server();
  const started = Date.now();
  const error = await rejection(
    mcp.request('tools/call', { name: 'slow', arguments: { ms: 5000 } }),
  );
  assert.equal(error.reason, 'timeout');
  assert.ok(Date.now() - started < 2000, `took ${Date.now() - started} ms`);
});

test('the headers timeout applies to a JSON answer that waits for the tool', async () => {
  const server = await upstream({ stateful: false, json: true });
  const mcp = client(mcpBackend('slow-json', server.url, { timeouts: { headersMs: 400 } }));
  await mcp.server();
  const error = await rejection(
    mcp.request('tools/call', { name: 'slow', arguments: { ms: 3000 } }),
  );
  assert.equal(error.reason, 'timeout');
  assert.match(error.message, /headers timeout/);
});

for (const json of [true, false])
  test(`an answer over maxResponseBytes is reason too_large (${json ? 'JSON' : 'SSE'})`, async () => {
    const server = await upstream({ stateful: false, json });
    const mcp = client(mcpBackend('big', server.url, { maxResponseBytes: 2048 }));
    await mcp.server();
    const error = await rejection(
      mcp.request('tools/call', { name: 'echo', arguments: { message: 'x'.repeat(5000) } }),
    );
    assert.equal(error.reason, 'too_large');
    // A small answer still passes.
    const small = await mcp.request('tools/call', { name: 'echo', arguments: { message: 'x' } });
    assert.deepEqual(small.content, [{ type: 'text', text: 'echo: x' }]);
  });

test('the circuit opens after consecutive unavailable failures, refuses without trying, logs it, and probes after the cool-down (issue 28: "circuit breaker per upstream")', async () => {
  const port = await freePort(); // nothing listens there
  const { logger, lines } = capturingLogger();
  let now = 0;
  const mcp = client(mcpBackend('down', `http://127.0.0.1:${port}/mcp`), {
    logger,
    breaker: { failureThreshold: 3, cooldownMs: 10_000 },
    now: () => now,
  });
  for (let i = 0; i < 3; i++) assert.equal((await rejection(mcp.server())).reason, 'unavailable');
  assert.equal(mcp.circuitOpen, true);
  const refused = await rejection(mcp.request('tools/list', {}));
  assert.equal(refused.reason, 'circuit_open');
  assert.ok(lines.some((l) => l.includes('circuit opened')));
  now += 10_001;
  assert.equal(mcp.circuitOpen, false, 'due for its half-open probe');
  // The probe is tried (and fails: nothing listens), which opens the circuit again.
  assert.equal((await rejection(mcp.server())).reason, 'unavailable');
  assert.equal(mcp.circuitOpen, true);
  assert.equal((await rejection(mcp.server())).reason, 'circuit_open');
});

test('the circuit closes again when the half-open probe succeeds', async () => {
  const server = await upstream({ stateful: false, json: true });
  let now = 0;
  // Two timeouts (a slow tool past totalMs) open it; the upstream itself stays up for the probe.
  const mcp = client(mcpBackend('flaky', server.url, { timeouts: { totalMs: 300 } }), {
    breaker: { failureThreshold: 2, cooldownMs: 1000 },
    now: () => now,
  });
  await mcp.server();
  for (let i = 0; i < 2; i++)
    assert.equal(
      (await rejection(mcp.request('tools/call', { name: 'slow', arguments: { ms: 2000 } })))
        .reason,
      'timeout',
    );
  assert.equal(mcp.circuitOpen, true);
  now += 1001;
  const ok = await mcp.request('tools/call', { name: 'echo', arguments: { message: 'back' } });
  assert.deepEqual(ok.content, [{ type: 'text', text: 'echo: back' }]);
  assert.equal(mcp.circuitOpen, false);
});

test('an upstream that goes away mid-call ends the call as unavailable, not a hang', async () => {
  const server = await startSdkUpstream({ stateful: true });
  const mcp = client(mcpBackend('killed', server.url));
  await mcp.server();
  const call = rejection(mcp.request('tools/call', { name: 'slow', arguments: { ms: 10_000 } }));
  while (!server.calls.some((c) => c.method === 'tools/call'))
    await new Promise((resolve) => setTimeout(resolve, 10));
  const started = Date.now();
  await server.close();
  const error = await call;
  assert.equal(error.reason, 'unavailable');
  assert.ok(Date.now() - started < 2000);
});

test('a stateful upstream\'s notifications/tools/list_changed arrives on the standalone GET stream and reaches onNotification (Streamable HTTP, "Listening for Messages from the Server"; issue 28: "refreshed on notifications/tools/list_changed")', async () => {
  const server = await upstream({ stateful: true });
  const mcp = client(mcpBackend('changing', server.url));
  const seen: string[] = [];
  mcp.onNotification((n) => seen.push(n.method));
  const before = await mcp.listAll('tools/list', 'tools');
  assert.equal(before.items.length, DEFAULT_TOOLS.length);
  const deadline = Date.now() + 3000;
  while (!server.calls.some((c) => c.httpMethod === 'GET') && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 10));
  const get = server.calls.find((c) => c.httpMethod === 'GET');
  assert.ok(get !== undefined, 'the client opened the standalone stream');
  assert.deepEqual([get.sessionId], server.sessionIds());
  await new Promise((resolve) => setTimeout(resolve, 100)); // the SDK registers the stream
  server.setTools(DEFAULT_TOOLS.filter((t) => t.name === 'echo'));
  while (!seen.includes('notifications/tools/list_changed') && Date.now() < deadline + 2000)
    await new Promise((resolve) => setTimeout(resolve, 10));
  assert.ok(seen.includes('notifications/tools/list_changed'), seen.join(', '));
  const after = await mcp.listAll('tools/list', 'tools');
  assert.deepEqual(
    after.items.map((t) => t.name),
    ['echo'],
  );
});

test("requests from the server in a call's stream: ping is answered, roots/list (not declared) refused at once with -32601, not left to time out (MCP Utilities/Ping; Lifecycle, capability negotiation)", async () => {
  const asking = {
    name: 'ask',
    description: 'Pings the client, then asks it for its roots.',
    handler: async (
      _args: Record<string, unknown>,
      extra: Parameters<(typeof DEFAULT_TOOLS)[number]['handler']>[1],
    ) => {
      const pong = await extra.sendRequest({ method: 'ping' }, z.object({}), { timeout: 3000 });
      try {
        await extra.sendRequest(
          { method: 'roots/list' },
          z.object({ roots: z.array(z.unknown()) }),
          {
            timeout: 3000,
          },
        );
        return { content: [{ type: 'text' as const, text: 'roots answered' }] };
      } catch (error) {
        return {
          content: [
            {
              type: 'text' as const,
              text: `pong ${JSON.stringify(pong)}; roots refused: ${String(error)}`,
            },
          ],
        };
      }
    },
  };
  const server = await upstream({ stateful: true, tools: [asking] });
  const mcp = client(mcpBackend('asking', server.url));
  const started = Date.now();
  const result = await mcp.request('tools/call', { name: 'ask', arguments: {} });
  const text = (result.content as { text: string }[])[0]?.text ?? '';
  assert.match(text, /^pong \{\}; roots refused: .*-32601/);
  assert.ok(Date.now() - started < 2500, `took ${Date.now() - started} ms`);
});

test('a closed client refuses requests and ends its sessions with DELETE', async () => {
  const server = await upstream({ stateful: true });
  const mcp = new McpUpstreamClient(mcpBackend('closing', server.url));
  await mcp.request('tools/list', {});
  const [id] = server.sessionIds();
  await mcp.close();
  const deleted = server.calls.filter((c) => c.httpMethod === 'DELETE');
  assert.deepEqual(
    deleted.map((c) => c.sessionId),
    [id],
  );
  assert.equal((await rejection(mcp.request('tools/list', {}))).reason, 'unavailable');
});
