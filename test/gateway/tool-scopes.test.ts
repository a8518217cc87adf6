// Per-tool OAuth scopes (gateway.backends[].tools.<op>.scopes): the protected-resource metadata lists
// them, a caller without a token is asked for them (401), a token without them gets 403
// insufficient_scope naming them (alone and inside a JSON-RPC batch), and the backend is never reached.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SignJWT, exportJWK, generateKeyPair, type CryptoKey } from 'jose';
import { startFixtureBackend, type FixtureBackend } from './support/fixture-backend.js';
import {
  fixtureBackendConfig,
  MCP_HEADERS,
  startConfiguredGateway,
  type ConfiguredGateway,
} from './support/gateway.js';

const ISSUER = 'https://idp.example.test';
const AUDIENCE = 'http://127.0.0.1:8080/mcp';
const METADATA = 'http://127.0.0.1:8080/.well-known/oauth-protected-resource/mcp';

describe('per-tool scopes', () => {
  let backend: FixtureBackend;
  let privateKey: CryptoKey;
  let gw: ConfiguredGateway;
  let key: string;

  before(async () => {
    backend = await startFixtureBackend();
    const pair = await generateKeyPair('ES256');
    privateKey = pair.privateKey;
    const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'ES256' };
    gw = await startConfiguredGateway({
      backends: [
        fixtureBackendConfig(backend.baseUrl, {
          identity: { mode: 'headers', sharedSecret: 'gateway-to-backend-secret-42' },
          tools: { getMyAccountBalance: { scopes: ['accounts:read'] } },
        }),
      ],
      auth: {
        devIdentityProvider: { enabled: false },
        scopes: ['openid', 'offline_access'],
        jwt: { issuer: ISSUER, audience: AUDIENCE, staticKeys: [{ jwk }] },
      },
    });
    key = await gw.issueKey({ application: 'a' });
  });
  after(async () => {
    await gw.close();
    await backend.close();
  });

  const token = (claims: Record<string, unknown>, audience = AUDIENCE) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
      .setIssuer(ISSUER)
      .setAudience(audience)
      .setSubject('alice')
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(privateKey);

  const balance = (id: number) => ({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'getMyAccountBalance', arguments: {} },
  });

  function post(payload: unknown, bearer?: string) {
    return gw.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: {
        ...MCP_HEADERS,
        'mcp-protocol-version': '2025-06-18',
        'ocp-apim-subscription-key': key,
        ...(bearer === undefined ? {} : { authorization: `Bearer ${bearer}` }),
      },
      payload: payload as Record<string, unknown>,
    });
  }

  test('RFC 9728: the metadata names the authorization server and the base and tool scopes', async () => {
    const response = await gw.app.inject({
      method: 'GET',
      url: '/.well-known/oauth-protected-resource/mcp',
    });
    const doc = response.json() as { authorization_servers: string[]; scopes_supported: string[] };
    assert.deepEqual(doc.authorization_servers, [ISSUER]);
    assert.deepEqual(doc.scopes_supported, ['openid', 'offline_access', 'accounts:read']);
  });

  test('no token: 401 asking for the base scopes and the tool scope', async () => {
    const response = await post(balance(1));
    assert.equal(response.statusCode, 401);
    assert.equal(
      response.headers['www-authenticate'],
      `Bearer resource_metadata="${METADATA}", scope="openid offline_access accounts:read"`,
    );
  });

  test('a token without the scope: 403 insufficient_scope naming it; the backend is not called', async () => {
    const before = backend.requests.length;
    const response = await post(balance(2), await token({ scope: 'openid profile' }));
    assert.equal(response.statusCode, 403);
    const challenge = String(response.headers['www-authenticate']);
    assert.match(
      challenge,
      /^Bearer error="insufficient_scope", error_description="[^"]*accounts:read[^"]*"/,
    );
    assert.match(challenge, /scope="openid offline_access accounts:read"/);
    assert.match(challenge, new RegExp(`resource_metadata="${METADATA}"`));
    const body = response.json() as { error: { code: number; data: Record<string, unknown> } };
    assert.equal(body.error.code, -31002);
    assert.equal(body.error.data.reason, 'INSUFFICIENT_SCOPE');
    assert.deepEqual(body.error.data.scope, ['accounts:read']);
    assert.equal(backend.requests.length, before);
  });

  test('scopes count from "scope" (space-separated) and "scp" (Okta array, Entra string)', async () => {
    for (const claims of [
      { scope: 'openid accounts:read' },
      { scp: ['accounts:read'] },
      { scp: 'accounts:read other' },
    ]) {
      const response = await post(balance(3), await token(claims));
      assert.equal(response.statusCode, 200, JSON.stringify(claims));
      assert.equal((response.json() as { error?: unknown }).error, undefined);
    }
  });

  test('in a batch the refused call is a JSON-RPC error naming the scope and the batch answers 403', async () => {
    const response = await gw.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: {
        ...MCP_HEADERS,
        'mcp-protocol-version': '2025-03-26',
        'ocp-apim-subscription-key': key,
        authorization: `Bearer ${await token({ scope: 'openid' })}`,
      },
      payload: JSON.stringify([balance(4), { jsonrpc: '2.0', id: 5, method: 'tools/list' }]),
    });
    assert.equal(response.statusCode, 403);
    assert.match(String(response.headers['www-authenticate']), /insufficient_scope/);
    const answers = response.json() as { id: number; error?: { data: { reason: string } } }[];
    assert.equal(answers.find((a) => a.id === 4)?.error?.data.reason, 'INSUFFICIENT_SCOPE');
    assert.equal(answers.find((a) => a.id === 5)?.error, undefined);
  });

  test('a token for another audience is refused (401 invalid_token): no token passthrough', async () => {
    const response = await post(
      balance(6),
      await token({ scope: 'accounts:read' }, 'https://other.example/mcp'),
    );
    assert.equal(response.statusCode, 401);
    assert.match(String(response.headers['www-authenticate']), /error="invalid_token"/);
  });
});
