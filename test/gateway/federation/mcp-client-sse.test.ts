// The event-stream parser the MCP client reads SSE answers with (WHATWG HTML §9.2.6 "Event stream
// interpretation"; MCP Streamable HTTP answers a POST with such a stream).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SseParser } from '../../../src/gateway/federation/sse.js';
import { credentialKey } from '../../../src/gateway/federation/upstream-sessions.js';
import { headerSafe, openUpstreams } from '../../../src/gateway/federation/mcp-client.js';
import type { BackendConfig } from '../../../src/config/gateway-mcp.js';
import { mcpBackend } from './support/upstream-backend.js';

test('§9.2.6: events end at a blank line; data lines join with LF; id and event kept; comments ignored', () => {
  const parser = new SseParser();
  const events = parser.push(
    ': keep-alive\nevent: message\nid: 7\ndata: {"a":\ndata: 1}\n\ndata:x\n\n',
  );
  assert.deepEqual(events, [
    { event: 'message', data: '{"a":\n1}', id: '7' },
    { event: 'message', data: 'x', id: '7' },
  ]);
});

test('§9.2.6: CRLF, CR and LF line ends, split anywhere between chunks (also inside CRLF and a UTF-8 sequence)', () => {
  const parser = new SseParser();
  const bytes = Buffer.from('data: héllo\r\n\r\ndata: two\r\rdata: three\n\n', 'utf8');
  const events = [];
  for (let i = 0; i < bytes.length; i++) events.push(...parser.push(bytes.subarray(i, i + 1)));
  assert.deepEqual(
    events.map((e) => e.data),
    ['héllo', 'two', 'three'],
  );
});

test('§9.2.6: an event without data is not dispatched; a leading BOM is dropped; no space after the colon is fine', () => {
  const parser = new SseParser();
  assert.deepEqual(parser.push('\uFEFFevent: ping\n\n'), []);
  assert.deepEqual(parser.push('event:custom\ndata:{}\n\n'), [
    { event: 'custom', data: '{}', id: undefined },
  ]);
});

test('session keys: one per distinct credential, independent of header order and name case, never showing a value', () => {
  const a = credentialKey({ Authorization: 'Bearer one', 'X-User': 'u' });
  assert.equal(a, credentialKey({ 'x-user': 'u', authorization: 'Bearer one' }));
  assert.notEqual(a, credentialKey({ Authorization: 'Bearer two', 'X-User': 'u' }));
  assert.equal(credentialKey(undefined), credentialKey({}));
  assert.doesNotMatch(a, /one|Bearer/);
});

test('2026-07-28 Mcp-Name: visible ASCII as is, anything else Base64-sentinel encoded', () => {
  assert.equal(headerSafe('get_weather'), 'get_weather');
  assert.equal(headerSafe('file:///tmp/a b'), 'file:///tmp/a b');
  assert.equal(headerSafe('café'), `=?base64?${Buffer.from('café').toString('base64')}?=`);
  assert.equal(headerSafe(' lead'), `=?base64?${Buffer.from(' lead').toString('base64')}?=`);
});

test('openUpstreams: a client for every backend with mcp, none for OpenAPI backends', async () => {
  const mcp = mcpBackend('remote', 'http://127.0.0.1:9/mcp');
  const common = {
    injectHeaders: {},
    approve: [] as string[],
    identity: { mode: 'none' as const, claims: {}, assertionTtlSeconds: 60 },
    tools: {},
  };
  const backends: BackendConfig[] = [
    {
      ...mcp,
      mcp: { ...mcp.mcp, headers: {}, resources: { approve: [] }, prompts: { approve: [] } },
      ...common,
    },
    {
      name: 'payments',
      baseUrl: 'http://127.0.0.1:9',
      openapi: { file: 'x.yaml' },
      timeouts: mcp.timeouts,
      maxResponseBytes: 1024,
      connections: 1,
      ...common,
    },
  ];
  const upstreams = openUpstreams(backends);
  assert.deepEqual([...upstreams.keys()], ['remote']);
  assert.equal(upstreams.get('remote')?.backend, 'remote');
  assert.equal(upstreams.get('remote')?.circuitOpen, false);
  for (const upstream of upstreams.values()) await upstream.close();
});
