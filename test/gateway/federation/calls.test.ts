// tools/call of an upstream MCP server's tool (issue 28: "Everything an OpenAPI tool has applies
// unchanged: ... argument validation against the upstream's inputSchema, outputSchema/structuredContent
// passed through ..."; "one upstream down or slow ... its calls get a clear error"), against a scripted
// upstream: what reaches the upstream, and what the caller gets back.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { GatewayError } from '../../../src/gateway/errors.js';
import { UpstreamError, type UpstreamFailure } from '../../../src/gateway/federation/contracts.js';
import { UpstreamIdentityRefused } from '../../../src/gateway/federation/identity.js';
import { META_UPSTREAM } from '../../../src/gateway/federation/calls.js';
import {
  HIDDEN,
  ScriptedUpstream,
  caller,
  harness,
  mcpTool,
  textOf,
} from './support/calls-harness.js';

const ok = (structured?: Record<string, unknown>) => () => ({
  content: [{ type: 'text', text: JSON.stringify(structured ?? { done: true }) }],
  ...(structured === undefined ? {} : { structuredContent: structured }),
});

const transfer = mcpTool({
  name: 'up_transfer',
  inputSchema: {
    type: 'object',
    properties: {
      amount: { type: 'string', pattern: '^[0-9]+\\.[0-9]{2}$' },
      to: { type: 'string' },
    },
    required: ['amount', 'to'],
    additionalProperties: false,
  },
  fixedArguments: { account: 'ops-001' },
});

describe('arguments (issue 28: argument validation against the upstream inputSchema; hidden arguments)', () => {
  test('invalid arguments are an isError result naming the argument, and the upstream gets no call', async () => {
    const upstream = new ScriptedUpstream('up', ok());
    const h = harness({ upstreams: [upstream] });
    const result = await h.run(transfer, { name: 'up_transfer', arguments: { amount: '12' } });
    assert.equal(result.isError, true);
    const text = textOf(result);
    assert.match(text, /Invalid arguments for tool up_transfer \(the upstream was not called\)/);
    assert.match(text, /missing required property "to"/);
    assert.match(text, /argument amount: must match pattern/);
    assert.equal(upstream.received.length, 0);
  });

  test('the upstream gets its own tool name and the hidden arguments last: the agent cannot override them', async () => {
    const upstream = new ScriptedUpstream('up', ok());
    const tool = mcpTool({
      name: 'up_transfer',
      mcp: { name: 'transfer' },
      inputSchema: { type: 'object', properties: { amount: { type: 'string' } } },
      fixedArguments: { account: 'ops-001' },
    });
    const h = harness({ upstreams: [upstream] });
    const result = await h.run(tool, {
      name: 'up_transfer',
      arguments: { amount: '1.00', account: 'mallory' },
    });
    assert.equal(result.isError, undefined, JSON.stringify(result));
    assert.equal(upstream.received.length, 1);
    const [received] = upstream.received;
    assert.equal(received?.method, 'tools/call');
    assert.deepEqual(received?.params, {
      name: 'transfer',
      arguments: { amount: '1.00', account: 'ops-001' },
    });
  });

  test('a user-scoped upstream tool refuses an anonymous caller before the upstream (security class)', async () => {
    const upstream = new ScriptedUpstream('up', ok());
    const h = harness({ upstreams: [upstream] });
    const tool = mcpTool({ name: 'up_me', securityClass: 'user-scoped' });
    await assert.rejects(
      h.run(tool, { name: 'up_me', arguments: {} }),
      (e: unknown) => e instanceof GatewayError && e.code === 'UNAUTHENTICATED',
    );
    assert.equal(upstream.received.length, 0);
  });
});

describe('the request (credentials, trace context)', () => {
  test("the identity's headers and a child traceparent go with the call; the client's own token does not", async () => {
    const upstream = new ScriptedUpstream('up', ok());
    const h = harness({
      upstreams: [upstream],
      identity: async (who, backend) => ({
        kind: 'headers',
        headers: { 'X-User-Id': who.user?.subject ?? 'anonymous', 'X-Backend': backend },
      }),
    });
    await h.run(
      mcpTool({ name: 'up_ping' }),
      { name: 'up_ping' },
      '2025-11-25',
      caller({ subject: 'alice' }, 'Bearer client.token'),
    );
    const options = upstream.received[0]?.options;
    assert.deepEqual(options?.headers, { 'X-User-Id': 'alice', 'X-Backend': 'up' });
    assert.match(
      String(options?.traceparent),
      /^00-0af7651916cd43dd8448eb211c80319c-[0-9a-f]{16}-01$/,
      'the same trace, a new span',
    );
    assert.doesNotMatch(String(options?.traceparent), /b7ad6b7169203331/);
  });

  test('a refused identity (token for another audience) is a clear tool error and the upstream gets no call', async () => {
    const upstream = new ScriptedUpstream('up', ok());
    const h = harness({
      upstreams: [upstream],
      identity: async () => {
        throw new UpstreamIdentityRefused(
          'up',
          'Your sign-in token is not meant for up (RFC 8707).',
        );
      },
    });
    const result = await h.run(mcpTool({ name: 'up_ping' }), { name: 'up_ping' });
    assert.equal(result.isError, true);
    assert.equal(textOf(result), 'Your sign-in token is not meant for up (RFC 8707).');
    assert.equal(upstream.received.length, 0);
    assert.ok(h.annotations.some((a) => a.upstream === 'credentials_refused'));
  });

  test('credentials that cannot be had (a token service down) are a tool error naming the backend, logged, not an internal error', async () => {
    const upstream = new ScriptedUpstream('up', ok());
    const h = harness({
      upstreams: [upstream],
      identity: async () => {
        throw new Error('connect ECONNREFUSED 10.9.8.7:4444');
      },
    });
    const result = await h.run(mcpTool({ name: 'up_ping' }), { name: 'up_ping' });
    assert.equal(result.isError, true);
    assert.match(textOf(result), /could not obtain credentials for you at up/);
    assert.doesNotMatch(textOf(result), /10\.9\.8\.7|ECONNREFUSED/);
    assert.deepEqual(h.warnings, ['upstream credentials could not be obtained']);
    assert.equal(upstream.received.length, 0);
  });
});

describe('the result (issue 28: outputSchema/structuredContent passed through)', () => {
  const rich = () => ({
    content: [
      { type: 'text', text: 'see http://10.9.8.7:3901/mcp/files/1 for details' },
      { type: 'image', data: 'aGVsbG8=', mimeType: 'image/png' },
      {
        type: 'resource_link',
        uri: 'file:///report.pdf',
        name: 'report',
        description: 'the report',
      },
      { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
    ],
    structuredContent: { total: 3, at: '10.9.8.7:3901' },
    _meta: { 'upstream/private': 1 },
  });

  test('2025-11-25: content of every kind as given (addresses masked), structuredContent kept, isError absent', async () => {
    const h = harness({ upstreams: [new ScriptedUpstream('up', rich)] });
    const result = await h.run(mcpTool({ name: 'up_files' }), { name: 'up_files' });
    assert.deepEqual(result, {
      content: [
        { type: 'text', text: 'see [backend]/files/1 for details' },
        { type: 'image', data: 'aGVsbG8=', mimeType: 'image/png' },
        {
          type: 'resource_link',
          uri: 'file:///report.pdf',
          name: 'report',
          description: 'the report',
        },
        { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
      ],
      structuredContent: { total: 3, at: '[backend]' },
    });
    assert.ok(h.annotations.some((a) => a.upstream === 'ok' && typeof a.upstreamMs === 'number'));
    assert.ok(h.annotations.some((a) => a.tool === 'up_files' && a.backend === 'up'));
  });

  test('2025-03-26: no structuredContent, and a resource link (2025-06-18) becomes text', async () => {
    const h = harness({ upstreams: [new ScriptedUpstream('up', rich)] });
    const result = await h.run(mcpTool({ name: 'up_files' }), { name: 'up_files' }, '2025-03-26');
    assert.equal('structuredContent' in result, false);
    const content = result.content as Record<string, unknown>[];
    assert.deepEqual(content[2], {
      type: 'text',
      text: 'Resource link report <file:///report.pdf>: the report',
    });
    assert.deepEqual(content[3], { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' });
  });

  test('2024-11-05: audio (2025-03-26) becomes text; a structured-only result is given as its JSON text', async () => {
    const h = harness({ upstreams: [new ScriptedUpstream('up', rich)] });
    const result = await h.run(mcpTool({ name: 'up_files' }), { name: 'up_files' }, '2024-11-05');
    const content = result.content as Record<string, unknown>[];
    assert.deepEqual(content[3], {
      type: 'text',
      text: '[audio (audio/wav) left out: this protocol revision has no audio]',
    });
    const bare = harness({
      upstreams: [new ScriptedUpstream('up', () => ({ content: [], structuredContent: { n: 1 } }))],
    });
    const old = await bare.run(mcpTool({ name: 'up_n' }), { name: 'up_n' }, '2025-03-26');
    assert.deepEqual(old, { content: [{ type: 'text', text: '{"n":1}' }] });
  });

  test("the upstream's isError is kept, with its content", async () => {
    const h = harness({
      upstreams: [
        new ScriptedUpstream('up', () => ({
          content: [{ type: 'text', text: 'no such file' }],
          isError: true,
        })),
      ],
    });
    const result = await h.run(mcpTool({ name: 'up_files' }), { name: 'up_files' });
    assert.deepEqual(result, { content: [{ type: 'text', text: 'no such file' }], isError: true });
    assert.ok(h.annotations.some((a) => a.upstream === 'tool_error'));
    assert.ok(h.annotations.some((a) => a.toolError === true));
  });

  const counted = mcpTool({
    name: 'up_count',
    outputSchema: {
      type: 'object',
      properties: { count: { type: 'integer' } },
      required: ['count'],
    },
  });

  test('outputSchema: a conforming structuredContent passes', async () => {
    const h = harness({ upstreams: [new ScriptedUpstream('up', ok({ count: 2 }))] });
    const result = await h.run(counted, { name: 'up_count' });
    assert.deepEqual(result.structuredContent, { count: 2 });
    assert.equal(result.isError, undefined);
  });

  test('outputSchema: a structuredContent that does not conform is an error result naming the field', async () => {
    const h = harness({ upstreams: [new ScriptedUpstream('up', ok({ count: 'two' }))] });
    const result = await h.run(counted, { name: 'up_count' });
    assert.equal(result.isError, true);
    assert.match(
      textOf(result),
      /upstream MCP server up answered with a result that does not match the tool's declared output schema \(field count: must be integer/,
    );
    assert.equal('structuredContent' in result, false);
    assert.deepEqual(h.warnings, ['upstream result does not match outputSchema']);
  });

  test('outputSchema: a success without structuredContent is an error result (MCP: it MUST be given); a tool error need not conform', async () => {
    const h = harness({
      upstreams: [new ScriptedUpstream('up', () => ({ content: [{ type: 'text', text: '2' }] }))],
    });
    const result = await h.run(counted, { name: 'up_count' });
    assert.equal(result.isError, true);
    assert.match(textOf(result), /no structuredContent/);
    const failing = harness({
      upstreams: [
        new ScriptedUpstream('up', () => ({
          content: [{ type: 'text', text: 'quota' }],
          isError: true,
        })),
      ],
    });
    assert.deepEqual(await failing.run(counted, { name: 'up_count' }), {
      content: [{ type: 'text', text: 'quota' }],
      isError: true,
    });
  });

  test('an answer that is not a CallToolResult is a protocol failure naming the backend', async () => {
    for (const answer of [
      { content: 'text' },
      { content: [{ text: 'no type' }] },
      { content: [], structuredContent: [1, 2] },
      { content: [], isError: 'yes' },
      { resultType: 'input_required', inputRequests: {} },
    ]) {
      const h = harness({ upstreams: [new ScriptedUpstream('up', () => answer)] });
      const result = await h.run(mcpTool({ name: 'up_x' }), { name: 'up_x' });
      assert.equal(result.isError, true, JSON.stringify(answer));
      assert.match(
        textOf(result),
        /^The upstream MCP server up gave an answer the gateway cannot pass on: /,
      );
      assert.deepEqual((result._meta as Record<string, unknown>)[META_UPSTREAM], {
        backend: 'up',
        failure: 'protocol',
      });
    }
  });

  test('a result nested deeper than the JSON depth bound is refused, not recursed into', async () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 20_000; i++) deep = { d: deep };
    const h = harness({
      upstreams: [new ScriptedUpstream('up', () => ({ content: [], structuredContent: { deep } }))],
    });
    const result = await h.run(mcpTool({ name: 'up_x' }), { name: 'up_x' });
    assert.equal(result.isError, true);
    assert.match(textOf(result), /nests objects or arrays deeper than 64 levels/);
  });
});

describe('upstream failures (issue 28: one upstream down or slow ... its calls get a clear error)', () => {
  const cases: [UpstreamFailure, RegExp][] = [
    [
      'unavailable',
      /is unavailable \(no connection, or the connection was lost before it answered\)/,
    ],
    ['timeout', /did not answer in time; the tool may or may not have run there/],
    ['circuit_open', /circuit breaker open\); the tool was not run there/],
    ['unauthorized', /refused the credentials the gateway sent on your behalf \(HTTP 401\/403\)/],
    ['too_large', /more data than the gateway accepts/],
    ['protocol', /not a valid MCP response/],
  ];
  for (const [reason, expected] of cases)
    test(`${reason}: an isError result naming the backend and what happened, never its address`, async () => {
      const upstream = new ScriptedUpstream(
        'up',
        () =>
          new UpstreamError('up', reason, `${reason} at http://10.9.8.7:3901/mcp (ECONNREFUSED)`),
      );
      const h = harness({ upstreams: [upstream] });
      const result = await h.run(mcpTool({ name: 'up_x' }), { name: 'up_x' });
      assert.equal(result.isError, true);
      const text = textOf(result);
      assert.match(text, /^The upstream MCP server up /);
      assert.match(text, expected);
      for (const hidden of HIDDEN) assert.equal(text.includes(hidden), false);
      assert.doesNotMatch(text, /10\.9\.8\.7|ECONNREFUSED/);
      assert.deepEqual((result._meta as Record<string, unknown>)[META_UPSTREAM], {
        backend: 'up',
        failure: reason,
      });
      assert.ok(h.annotations.some((a) => a.upstream === reason));
      assert.deepEqual(h.warnings, ['upstream MCP call failed']);
    });

  test("rpc: the upstream's JSON-RPC error is passed on with its code, addresses masked", async () => {
    const upstream = new ScriptedUpstream(
      'up',
      () =>
        new UpstreamError('up', 'rpc', 'rpc error', {
          code: -32602,
          message: 'Unknown tool: x (see http://10.9.8.7:3901/mcp/help)',
        }),
    );
    const result = await harness({ upstreams: [upstream] }).run(mcpTool({ name: 'up_x' }), {
      name: 'up_x',
    });
    assert.equal(result.isError, true);
    assert.equal(
      textOf(result),
      'The upstream MCP server up refused the call: Unknown tool: x (see [backend]/help) (code -32602).',
    );
  });
});
