// gateway.backends[].mcp, the identity modes for MCP upstreams and gateway.bundles: what the schema cannot
// check is refused at load with the key and the problem (issue 28; src/config/gateway-federation.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../src/config/load.js';
import { ConfigError } from '../../src/config/errors.js';

const OPENAPI = { name: 'api', baseUrl: 'http://api.internal', openapi: { file: 'x.yaml' } };
const UPSTREAM = { name: 'up', mcp: { url: 'http://mcp.internal/mcp' } };

function load(gateway: Record<string, unknown>) {
  return loadConfig({ env: {}, overrides: { gateway } });
}

function refused(gateway: Record<string, unknown>, message: RegExp): void {
  assert.throws(
    () => load(gateway),
    (error: unknown) => error instanceof ConfigError && message.test(error.message),
  );
}

test('an MCP backend needs no baseUrl and gets the documented defaults', () => {
  const config = load({ backends: [OPENAPI, UPSTREAM] });
  const up = config.gateway.backends[1];
  assert.equal(up?.baseUrl, undefined);
  assert.deepEqual(up?.mcp?.headers, {});
  assert.equal(up?.mcp?.listTtlMs, 60_000);
  assert.equal(up?.mcp?.securityClass, 'optional');
  assert.deepEqual(up?.mcp?.resources.approve, []);
  assert.deepEqual(config.gateway.bundles, {});
});

test('a backend is OpenAPI or MCP: both, neither, or OpenAPI without baseUrl are refused by name', () => {
  refused({ backends: [{ ...OPENAPI, mcp: UPSTREAM.mcp }] }, /backends\[0\] \(api\): has both/);
  refused({ backends: [{ name: 'x' }] }, /backends\[0\] \(x\): needs openapi .* or mcp/);
  refused({ backends: [{ name: 'x', openapi: { file: 'x.yaml' } }] }, /\(x\)\.baseUrl: required/);
  refused({ backends: [OPENAPI, { ...UPSTREAM, name: 'api' }] }, /the name api is used twice/);
});

test('token-exchange and delegation are for MCP upstreams and need their settings', () => {
  refused(
    { backends: [{ ...OPENAPI, identity: { mode: 'token-exchange' } }] },
    /identity\.mode: token-exchange is for upstream MCP servers/,
  );
  refused(
    { backends: [{ ...UPSTREAM, identity: { mode: 'token-exchange' } }] },
    /identity\.tokenExchange: required with mode token-exchange/,
  );
  const delegation = { issuer: 'http://as.internal', clientId: 'gw' };
  refused(
    { backends: [{ ...UPSTREAM, identity: { mode: 'delegation', delegation } }] },
    /gateway\.federation\.tokenKey: required because .*\(up\) uses identity mode delegation/,
  );
  const config = load({
    backends: [{ ...UPSTREAM, identity: { mode: 'delegation', delegation } }],
    federation: { tokenKey: 'k'.repeat(32) },
  });
  assert.deepEqual(config.gateway.backends[0]?.identity.delegation?.scopes, []);
});

test('bundles name backends and products that exist', () => {
  refused(
    { backends: [UPSTREAM], bundles: { team: { tools: ['backend:nope'] } } },
    /gateway\.bundles\.team\.tools\[0\]: no backend is named nope/,
  );
  refused(
    { backends: [UPSTREAM], bundles: { team: { tools: ['product:nope'] } } },
    /gateway\.bundles\.team\.tools\[0\]: no product is named nope/,
  );
  const config = load({ backends: [UPSTREAM], bundles: { team: { tools: ['backend:up', 'x'] } } });
  assert.deepEqual(config.gateway.bundles.team?.tools, ['backend:up', 'x']);
  assert.throws(() => load({ backends: [UPSTREAM], bundles: { 'Bad Name': { tools: [] } } }));
});
