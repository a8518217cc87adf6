// `gateway.auth.devIdentityProvider.tokenExchange` (issue 28): the development server's token exchange
// clients are checked at load, each problem naming its key.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, loadConfig } from '../../../src/config/load.js';

function load(clients: unknown[]) {
  return loadConfig({
    env: {},
    overrides: { gateway: { auth: { devIdentityProvider: { tokenExchange: { clients } } } } },
  });
}

test('tokenExchange.clients: none by default; a client with id, secret and audiences loads', () => {
  assert.deepEqual(loadConfig({ env: {} }).gateway.auth.devIdentityProvider.tokenExchange, {
    clients: [],
  });
  const config = load([
    {
      clientId: 'toolgate-gateway',
      clientSecret: 'from-the-environment-0123',
      audiences: ['http://127.0.0.1:3001/mcp'],
    },
  ]);
  assert.deepEqual(config.gateway.auth.devIdentityProvider.tokenExchange.clients, [
    {
      clientId: 'toolgate-gateway',
      clientSecret: 'from-the-environment-0123',
      audiences: ['http://127.0.0.1:3001/mcp'],
    },
  ]);
});

test("tokenExchange.clients: a client id listed twice, the portal's id, a short secret or no audience is refused, naming the key", () => {
  const client = { clientId: 'gw', clientSecret: 'sixteen-chars-ok!', audiences: ['a'] };
  const cases: [unknown[], RegExp][] = [
    [[client, client], /tokenExchange\.clients\[1\]\.clientId: "gw" is listed twice/],
    [
      [{ ...client, clientId: 'toolgate-portal' }],
      /clients\[0\]\.clientId: "toolgate-portal" is the portal's client/,
    ],
    [
      [{ ...client, clientSecret: 'short' }],
      /tokenExchange\/clients\/0\/clientSecret|tokenExchange\.clients\[0\]\.clientSecret|clientSecret/,
    ],
    [[{ ...client, audiences: [] }], /audiences/],
  ];
  for (const [clients, message] of cases)
    assert.throws(
      () => load(clients),
      (error: unknown) => error instanceof ConfigError && message.test(error.message),
      String(message),
    );
});
