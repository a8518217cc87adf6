// tools/call of upstream MCP tools through the real MCP client (federation/mcp-client.ts) to a real
// TypeScript-SDK server (support/sdk-upstream.ts) — issue 28: argument validation against the upstream's
// inputSchema, hidden arguments, outputSchema/structuredContent passed through, "one upstream down or
// slow ... its calls get a clear error", and identity to upstream MCP servers (none, the identity headers
// or signed assertion the HTTP backends get, the caller's token passed through with its audience checked).
// What the upstream received is read from its own record of each HTTP request.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Value } from '@sinclair/typebox/value';
import { BackendSchema, type BackendConfig } from '../../../src/config/gateway-mcp.js';
import { createAssertionSigner } from '../../../src/gateway/auth/assertion/sign.js';
import { createAssertionVerifier } from '../../../src/gateway/auth/assertion/verify.js';
import { McpUpstreamClient } from '../../../src/gateway/federation/mcp-client.js';
import { upstreamIdentity } from '../../../src/gateway/federation/identity.js';
import type { Tool } from '../../../src/gateway/catalogue/types.js';
import { startSdkUpstream, type SdkUpstream } from './support/sdk-upstream.js';
import { caller, harness, mcpTool, textOf } from './support/calls-harness.js';
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

function backend(
  url: string,
  identity: Record<string, unknown> = { mode: 'none' },
  timeouts: Record<string, number> = {},
): BackendConfig {
  return Value.Default(BackendSchema, {
    name: 'up',
    mcp: Value.Default(BackendSchema.properties.mcp, { url }),
    identity: Value.Default(BackendSchema.properties.identity, identity),
    timeouts: { connectMs: 1000, headersMs: 5000, totalMs: 5000, ...timeouts },
  }) as BackendConfig;
}

function client(config: BackendConfig): McpUpstreamClient {
  const { mcp } = config;
  assert.ok(mcp);
  const made = new McpUpstreamClient({ ...config, mcp });
  cleanups.push(() => made.close());
  return made;
}

/** A gateway call path to `sdk` with the backend's identity mode. */
async function through(
  sdk: SdkUpstream,
  identity: Record<string, unknown> = { mode: 'none' },
  extra: { timeouts?: Record<string, number> } = {},
) {
  const config = backend(sdk.url, identity, extra.timeouts);
  const signer = identity.mode === 'assertion' ? await createAssertionSigner() : undefined;
  const h = harness({
    upstreams: [client(config)],
    identity: upstreamIdentity({ backends: [config], gatewayUrl: 'http://127.0.0.1:8080', signer }),
  });
  return { h, signer };
}

/** The upstream's record of the tools/call requests it received. */
const toolCalls = (sdk: SdkUpstream) => sdk.calls.filter((c) => c.method === 'tools/call');

const echo = mcpTool({
  name: 'up_echo',
  mcp: { name: 'echo' },
  inputSchema: {
    type: 'object',
    properties: { message: { type: 'string', maxLength: 20 } },
    required: ['message'],
  },
});
const add: Tool = mcpTool({
  name: 'up_add',
  mcp: { name: 'add' },
  inputSchema: {
    type: 'object',
    properties: { a: { type: 'number' }, b: { type: 'number' } },
    required: ['a', 'b'],
  },
  outputSchema: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] },
});
const alice = (claims: Record<string, unknown> = {}, authorization = 'Bearer alice.client.token') =>
  caller({ subject: 'alice', claims: { email: 'alice@example.com', ...claims } }, authorization);

describe('calls through the real client to an SDK server', () => {
  test('arguments are validated against the inputSchema before the upstream is reached', async () => {
    const sdk = await upstream();
    const { h } = await through(sdk);
    const result = await h.run(echo, { name: 'up_echo', arguments: { message: 'x'.repeat(21) } });
    assert.equal(result.isError, true);
    assert.match(textOf(result), /argument message: must NOT have more than 20 characters/);
    assert.equal(toolCalls(sdk).length, 0, 'the upstream got no tools/call');
  });

  test('the upstream runs its own tool with the hidden argument fixed, whatever the agent sent', async () => {
    const sdk = await upstream();
    const { h } = await through(sdk);
    const hidden = mcpTool({
      name: 'up_echo',
      mcp: { name: 'echo' },
      inputSchema: { type: 'object', properties: {} },
      fixedArguments: { message: 'fixed by the operator' },
    });
    const result = await h.run(hidden, { name: 'up_echo', arguments: { message: 'mine' } });
    assert.deepEqual(result, { content: [{ type: 'text', text: 'echo: fixed by the operator' }] });
    assert.equal(toolCalls(sdk).length, 1);
  });

  test('structuredContent is passed through for 2025-06-18 and later, removed for 2025-03-26', async () => {
    const sdk = await upstream({ json: true });
    const { h } = await through(sdk);
    const modern = await h.run(add, { name: 'up_add', arguments: { a: 2, b: 3 } }, '2025-06-18');
    assert.deepEqual(modern, {
      content: [{ type: 'text', text: '5' }],
      structuredContent: { sum: 5 },
    });
    const old = await h.run(add, { name: 'up_add', arguments: { a: 2, b: 3 } }, '2025-03-26');
    assert.deepEqual(old, { content: [{ type: 'text', text: '5' }] });
  });

  test("content of every kind comes through as the SDK server sent it, the upstream's address masked", async () => {
    const PNG = Buffer.from('not really a png').toString('base64');
    let url = '';
    const sdk = await upstream({
      tools: [
        {
          name: 'where',
          // The fixture types text content; the SDK passes any content block on.
          handler: () =>
            ({
              content: [
                { type: 'text', text: `served by ${url}` },
                { type: 'image', data: PNG, mimeType: 'image/png' },
                {
                  type: 'resource_link',
                  uri: 'item://7',
                  name: 'item 7',
                  mimeType: 'application/json',
                },
              ],
            }) as never,
        },
      ],
    });
    url = sdk.url;
    const config = backend(sdk.url);
    const origin = new URL(sdk.url);
    const h = harness({
      upstreams: [client(config)],
      identity: upstreamIdentity({ backends: [config], gatewayUrl: 'http://127.0.0.1:8080' }),
      hidden: [sdk.url, origin.origin, origin.host],
    });
    const where = mcpTool({ name: 'up_where', mcp: { name: 'where' } });
    const result = await h.run(where, { name: 'up_where', arguments: {} }, '2025-11-25');
    assert.deepEqual(result, {
      content: [
        { type: 'text', text: 'served by [backend]' },
        { type: 'image', data: PNG, mimeType: 'image/png' },
        { type: 'resource_link', uri: 'item://7', name: 'item 7', mimeType: 'application/json' },
      ],
    });
    const old = await h.run(where, { name: 'up_where', arguments: {} }, '2025-03-26');
    assert.deepEqual((old.content as unknown[])[2], {
      type: 'text',
      text: 'Resource link item 7 <item://7>',
    });
  });

  test('a structuredContent that does not match the outputSchema is an error result', async () => {
    const sdk = await upstream();
    const { h } = await through(sdk);
    const wrong = {
      ...add,
      outputSchema: { type: 'object', properties: { sum: { type: 'string' } } },
    };
    const result = await h.run(wrong, { name: 'up_add', arguments: { a: 1, b: 1 } });
    assert.equal(result.isError, true);
    assert.match(
      textOf(result),
      /does not match the tool's declared output schema \(field sum: must be string/,
    );
  });

  test('an upstream that is down: an isError result naming the backend, never its address', async () => {
    const port = await freePort();
    const config = backend(`http://127.0.0.1:${port}/mcp`);
    const h = harness({
      upstreams: [client(config)],
      identity: upstreamIdentity({ backends: [config], gatewayUrl: 'http://127.0.0.1:8080' }),
    });
    const result = await h.run(echo, { name: 'up_echo', arguments: { message: 'hi' } });
    assert.equal(result.isError, true);
    assert.match(textOf(result), /^The upstream MCP server up is unavailable/);
    assert.doesNotMatch(JSON.stringify(result), new RegExp(String(port)));
    assert.ok(h.annotations.some((a) => a.upstream === 'unavailable'));
  });

  test('an upstream too slow for the timeout: an isError result saying the tool may have run', async () => {
    const sdk = await upstream();
    const { h } = await through(
      sdk,
      { mode: 'none' },
      { timeouts: { headersMs: 300, totalMs: 400 } },
    );
    const slow = mcpTool({
      name: 'up_slow',
      mcp: { name: 'slow' },
      inputSchema: { type: 'object', properties: { ms: { type: 'number' } } },
    });
    const result = await h.run(slow, { name: 'up_slow', arguments: { ms: 2000 } });
    assert.equal(result.isError, true);
    assert.match(
      textOf(result),
      /up did not answer in time; the tool may or may not have run there/,
    );
  });

  test('credentials the upstream refuses (401): a clear result, not an internal error', async () => {
    const sdk = await upstream({
      authorize: (headers) =>
        headers.authorization === 'Bearer meant-for-upstream'
          ? true
          : { wwwAuthenticate: 'Bearer error="invalid_token"' },
    });
    const { h } = await through(sdk, { mode: 'passthrough' });
    const result = await h.run(
      echo,
      { name: 'up_echo', arguments: { message: 'hi' } },
      '2025-11-25',
      alice({ aud: ['http://127.0.0.1:8080/mcp', sdk.url] }, 'Bearer not-accepted'),
    );
    assert.equal(result.isError, true);
    assert.match(textOf(result), /up refused the credentials the gateway sent on your behalf/);
  });
});

describe('identity at the upstream (issue 28: identity to upstream MCP servers, per backend)', () => {
  test('mode headers: the upstream receives the identity headers; the client token never', async () => {
    const sdk = await upstream();
    const { h } = await through(sdk, {
      mode: 'headers',
      sharedSecret: 'shared-secret-0123456789',
      claims: { email: 'X-User-Email' },
    });
    const result = await h.run(
      echo,
      { name: 'up_echo', arguments: { message: 'hi' } },
      '2025-11-25',
      alice(),
    );
    assert.equal(result.isError, undefined, JSON.stringify(result));
    const [received] = toolCalls(sdk);
    assert.ok(received);
    assert.equal(received.headers['x-user-id'], 'alice');
    assert.equal(received.headers['x-user-email'], 'alice@example.com');
    assert.equal(received.headers['x-toolgate-application'], 'demo-agent');
    assert.equal(received.headers['x-toolgate-gateway-key'], 'shared-secret-0123456789');
    assert.equal(received.headers.authorization, undefined, 'the client token is not passed on');
    assert.match(String(received.headers.traceparent), /^00-0af7651916cd43dd8448eb211c80319c-/);
  });

  test('mode assertion: the upstream receives an assertion it verifies, audience its own origin', async () => {
    const sdk = await upstream();
    const { h, signer } = await through(sdk, { mode: 'assertion' });
    assert.ok(signer);
    await h.run(echo, { name: 'up_echo', arguments: { message: 'hi' } }, '2025-11-25', alice());
    const [received] = toolCalls(sdk);
    const assertion = received?.headers['x-toolgate-identity'];
    assert.equal(typeof assertion, 'string');
    const verified = await createAssertionVerifier({
      issuer: 'http://127.0.0.1:8080',
      audience: new URL(sdk.url).origin,
      jwks: signer.publicJwks(),
    }).verify(String(assertion));
    assert.equal(verified.subject, 'alice');
    assert.equal(verified.claims.app, 'demo-agent');
    assert.equal(received?.headers['x-user-id'], undefined, 'no unsigned identity beside it');
  });

  test('mode none: neither identity headers nor the client token reach the upstream', async () => {
    const sdk = await upstream();
    const { h } = await through(sdk, { mode: 'none' });
    await h.run(echo, { name: 'up_echo', arguments: { message: 'hi' } }, '2025-11-25', alice());
    const [received] = toolCalls(sdk);
    assert.ok(received);
    for (const name of [
      'authorization',
      'x-user-id',
      'x-toolgate-identity',
      'x-toolgate-application',
    ])
      assert.equal(received.headers[name], undefined, name);
  });

  test('mode passthrough: a token whose audience names the upstream is sent; one for the gateway only is not', async () => {
    const sdk = await upstream();
    const { h } = await through(sdk, { mode: 'passthrough' });
    const meant = await h.run(
      echo,
      { name: 'up_echo', arguments: { message: 'hi' } },
      '2025-11-25',
      alice({ aud: ['http://127.0.0.1:8080/mcp', sdk.url] }, 'Bearer for-both'),
    );
    assert.equal(meant.isError, undefined, JSON.stringify(meant));
    assert.equal(toolCalls(sdk)[0]?.headers.authorization, 'Bearer for-both');

    const before = toolCalls(sdk).length;
    const refused = await h.run(
      echo,
      { name: 'up_echo', arguments: { message: 'hi' } },
      '2025-11-25',
      alice({ aud: 'http://127.0.0.1:8080/mcp' }, 'Bearer gateway-only'),
    );
    assert.equal(refused.isError, true);
    assert.match(textOf(refused), /not meant for the service behind up.*RFC 8707/s);
    assert.equal(toolCalls(sdk).length, before, 'no tools/call reached the upstream');
    assert.ok(!sdk.calls.some((c) => c.headers.authorization === 'Bearer gateway-only'));
  });
});
