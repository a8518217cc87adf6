// Scope step-up with the official SDK client against the gateway and its development authorization
// server (in process, on a loopback port): signed in with the base scopes, the client calls a tool that
// needs `payments:read`, gets 403 insufficient_scope naming it, signs in again asking for it, and the call
// then goes through.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  Client,
  StreamableHTTPClientTransport,
  UnauthorizedError,
} from '@modelcontextprotocol/client';
import { decodeJwt } from 'jose';
import { BrowserlessOAuthProvider } from '../../../helpers/oauth-client.js';
import { startFixtureBackend, type FixtureBackend } from '../../support/fixture-backend.js';
import { freePort } from '../../../helpers/free-port.js';
import {
  fixtureBackendConfig,
  startConfiguredGateway,
  type ConfiguredGateway,
} from '../../support/gateway.js';

let backend: FixtureBackend;
let gw: ConfiguredGateway;
let mcpUrl: string;
let key: string;

before(async () => {
  backend = await startFixtureBackend();
  const port = await freePort();
  gw = await startConfiguredGateway({
    host: '127.0.0.1',
    port,
    backends: [
      fixtureBackendConfig(backend.baseUrl, {
        identity: { mode: 'headers', sharedSecret: 'gateway-to-backend-secret-42' },
        tools: { getPayment: { scopes: ['payments:read'] } },
      }),
    ],
    auth: { devIdentityProvider: { autoLogin: 'alice' } },
  });
  await gw.app.listen({ port, host: '127.0.0.1' });
  mcpUrl = `http://127.0.0.1:${port}/mcp`;
  key = await gw.issueKey({ application: 'a' });
});

after(async () => {
  await gw.close();
  await backend.close();
});

function transport(provider: BrowserlessOAuthProvider): StreamableHTTPClientTransport {
  return new StreamableHTTPClientTransport(new URL(mcpUrl), {
    authProvider: provider,
    requestInit: { headers: { 'Ocp-Apim-Subscription-Key': key } },
  });
}

/** Runs `call`; on the SDK's UnauthorizedError (it sent the user to sign in), finishes the sign-in. */
async function signInWhenAsked(
  provider: BrowserlessOAuthProvider,
  call: (client: Client) => Promise<unknown>,
): Promise<boolean> {
  const client = new Client({ name: 'step-up', version: '1.0.0' });
  try {
    await client.connect(transport(provider));
    await call(client);
    return false;
  } catch (error) {
    if (!(error instanceof UnauthorizedError)) throw error;
    assert.ok(provider.callback !== undefined);
    await transport(provider).finishAuth(provider.callback);
    return true;
  } finally {
    await client.close();
  }
}

test('403 insufficient_scope → the SDK signs in again asking for the named scope → the call succeeds', async () => {
  const provider = new BrowserlessOAuthProvider();
  const balance = (client: Client) =>
    client.callTool({ name: 'getMyAccountBalance', arguments: {} });
  const payment = (client: Client) =>
    client.callTool({ name: 'getPayment', arguments: { paymentId: 'p-1' } });

  assert.equal(await signInWhenAsked(provider, balance), true, 'first sign-in');
  const first = decodeJwt(provider.stored?.access_token ?? '');
  assert.equal(first.sub, 'alice');
  assert.ok(!String(first.scope ?? '').includes('payments:read'), 'not asked for yet');

  assert.equal(await signInWhenAsked(provider, payment), true, 'step-up sign-in');
  const stepUp = provider.authorizations[1];
  assert.ok(stepUp !== undefined);
  assert.ok(
    (stepUp.searchParams.get('scope') ?? '').split(' ').includes('payments:read'),
    `the step-up asks for the challenged scope: ${stepUp.searchParams.get('scope')}`,
  );
  assert.match(String(decodeJwt(provider.stored?.access_token ?? '').scope), /payments:read/);

  const before = backend.requests.length;
  assert.equal(await signInWhenAsked(provider, payment), false, 'no third sign-in');
  assert.equal(backend.requests.length, before + 1, 'the call reached the backend');
  assert.equal(provider.authorizations.length, 2);
});
