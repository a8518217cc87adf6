// The production recipes of docs/identity-providers.md, each against a real oidc-provider configured to
// behave like that provider: its issuer's shape (path, trailing slash), the audience its access tokens
// carry, its claim names and token format (Entra's ver/tid/oid/scp, Auth0's namespaced claims and
// permissions, Okta's scp array and uid, Keycloak's azp and realm_access). The gateway runs with the
// recipe's configuration only (issuer, audience; keys found by discovery → JWKS) and forwards the
// recipe's claims to a backend that records what it receives.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import { startFixtureBackend, type FixtureBackend } from '../support/fixture-backend.js';
import { fixtureBackendConfig, MCP_HEADERS, startConfiguredGateway } from '../support/gateway.js';
import { makeKey } from './helpers.js';

const GATEWAY_MCP = 'http://127.0.0.1:8080/mcp';

interface Recipe {
  readonly name: string;
  /** The issuer's path on the loopback host, as the provider shapes it. */
  readonly issuerPath: string;
  /** The resource the client asks for and the audience the provider puts into the token. */
  readonly resource: string;
  readonly audience: string;
  /** The client (and, for client credentials, the token's sub). */
  readonly clientId: string;
  /** Claims the provider adds to access tokens. */
  readonly claims: Record<string, unknown>;
  /** The recipe's gateway.backends[].identity.claims (claim → header). */
  readonly forward: Record<string, string>;
  /** Headers the backend must receive. */
  readonly expected: Record<string, string>;
}

const TENANT = '72f988bf-86f1-41af-91ab-2d7cd011db47';
const ENTRA_APP = '6e7a4c63-0f2b-4c52-9a39-3b0a0b3a3f1d';

const RECIPES: readonly Recipe[] = [
  {
    name: 'Microsoft Entra ID (v2 access tokens)',
    issuerPath: `/${TENANT}/v2.0`,
    resource: 'api://toolgate-gateway',
    // accessTokenAcceptedVersion 2: aud is the application (client) ID, not the api:// URI.
    audience: ENTRA_APP,
    clientId: 'entra-user-subject',
    claims: {
      ver: '2.0',
      tid: TENANT,
      oid: '00000000-0000-0000-66f3-3332eca7ea81',
      azp: 'claude-desktop-client-id',
      preferred_username: 'alice@contoso.example',
      scp: 'mcp.access',
      roles: ['Payments.Reader'],
    },
    forward: { oid: 'X-User-Oid', preferred_username: 'X-User-Name', tid: 'X-User-Tenant' },
    expected: {
      'x-user-oid': '00000000-0000-0000-66f3-3332eca7ea81',
      'x-user-name': 'alice@contoso.example',
      'x-user-tenant': TENANT,
    },
  },
  {
    name: 'Auth0 (API identifier audience)',
    issuerPath: '/',
    resource: 'https://toolgate.example/mcp',
    audience: 'https://toolgate.example/mcp',
    clientId: 'auth0|64f1c0ffee',
    claims: {
      'https://toolgate.example/email': 'alice@example.com',
      permissions: ['read:accounts'],
      azp: 'claude-desktop-client-id',
    },
    forward: { 'https://toolgate.example/email': 'X-User-Email' },
    expected: { 'x-user-email': 'alice@example.com' },
  },
  {
    name: 'Okta (custom authorization server)',
    issuerPath: '/oauth2/default',
    resource: 'api://default',
    audience: 'api://default',
    clientId: 'alice@example.com',
    claims: { uid: '00u1ab2cd3EF4gh5i6j7', cid: '0oa8vscode', scp: ['mcp.access', 'openid'] },
    forward: { uid: 'X-User-Uid' },
    expected: { 'x-user-uid': '00u1ab2cd3EF4gh5i6j7' },
  },
  {
    name: 'Keycloak (audience mapper)',
    issuerPath: '/realms/toolgate',
    // Keycloak ignores RFC 8707; its audience mapper puts the gateway's client into aud.
    resource: 'https://toolgate.example/mcp',
    audience: 'toolgate-gateway',
    clientId: 'f3b0c1de-5a6b-4c7d-8e9f-0a1b2c3d4e5f',
    claims: {
      azp: 'vscode-mcp',
      typ: 'Bearer',
      preferred_username: 'alice',
      email: 'alice@example.com',
      realm_access: { roles: ['payments-reader'] },
    },
    forward: { email: 'X-User-Email', preferred_username: 'X-User-Name' },
    expected: { 'x-user-email': 'alice@example.com', 'x-user-name': 'alice' },
  },
];

interface Running {
  readonly issuer: string;
  readonly tokenEndpoint: string;
  close(): Promise<void>;
}

/** oidc-provider at the recipe's issuer path on 127.0.0.1:0, issuing JWT access tokens for its API. */
async function startProviderLike(recipe: Recipe): Promise<Running> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const issuer = `http://127.0.0.1:${port}${recipe.issuerPath}`;
  const key = await makeKey('recipe-key', 'RS256');
  const provider = new Provider(issuer, {
    jwks: { keys: [key.privateJwk] },
    clients: [
      {
        client_id: recipe.clientId,
        client_secret: 'a-secret-long-enough-for-the-test',
        grant_types: ['client_credentials'],
        redirect_uris: [],
        response_types: [],
      },
    ],
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => recipe.resource,
        getResourceServerInfo: () => ({
          audience: recipe.audience,
          scope: '',
          accessTokenFormat: 'jwt',
          jwt: { sign: { alg: 'RS256' } },
        }),
      },
    },
    extraTokenClaims: () => recipe.claims,
  });
  const mount = recipe.issuerPath.replace(/\/+$/, '');
  const callback = provider.callback();
  server.on('request', (req: IncomingMessage & { originalUrl?: string }, res) => {
    const url = req.url ?? '/';
    if (mount !== '' && url.startsWith(mount)) {
      req.originalUrl = url;
      req.url = url.slice(mount.length) || '/';
    }
    void callback(req, res);
  });
  return {
    issuer,
    tokenEndpoint: `${issuer.replace(/\/+$/, '')}/token`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('identity provider recipes (docs/identity-providers.md)', () => {
  let backend: FixtureBackend;
  before(async () => {
    backend = await startFixtureBackend();
  });
  after(async () => backend.close());

  for (const recipe of RECIPES)
    test(`${recipe.name}: the gateway accepts its access tokens and forwards the recipe's claims`, async () => {
      const idp = await startProviderLike(recipe);
      const gw = await startConfiguredGateway({
        backends: [
          fixtureBackendConfig(backend.baseUrl, {
            identity: {
              mode: 'headers',
              sharedSecret: 'gateway-to-backend-secret-42',
              claims: recipe.forward,
            },
          }),
        ],
        auth: {
          devIdentityProvider: { enabled: false },
          jwt: { issuer: idp.issuer, audience: recipe.audience, mode: 'required' },
        },
      });
      const { app } = gw;
      try {
        const key = await gw.issueKey({ application: 'a' });
        const issued = await fetch(idp.tokenEndpoint, {
          method: 'POST',
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            authorization: `Basic ${Buffer.from(
              `${encodeURIComponent(recipe.clientId)}:a-secret-long-enough-for-the-test`,
            ).toString('base64')}`,
          },
          body: new URLSearchParams({
            grant_type: 'client_credentials',
            resource: recipe.resource,
          }).toString(),
        });
        assert.equal(issued.status, 200, await issued.clone().text());
        const { access_token } = (await issued.json()) as { access_token: string };

        const metadata = await app.inject({
          method: 'GET',
          url: '/.well-known/oauth-protected-resource/mcp',
        });
        assert.deepEqual(
          (metadata.json() as { authorization_servers: string[] }).authorization_servers,
          [idp.issuer],
        );

        const before = backend.requests.length;
        const call = (token: string) =>
          app.inject({
            method: 'POST',
            url: '/mcp',
            headers: {
              ...MCP_HEADERS,
              'mcp-protocol-version': '2025-06-18',
              'ocp-apim-subscription-key': key,
              authorization: `Bearer ${token}`,
            },
            payload: {
              jsonrpc: '2.0',
              id: 1,
              method: 'tools/call',
              params: { name: 'getMyAccountBalance', arguments: {} },
            },
          });
        const response = await call(access_token);
        assert.equal(response.statusCode, 200, response.body);
        assert.equal((response.json() as { error?: unknown }).error, undefined, response.body);
        const seen = backend.requests.slice(before).at(-1);
        assert.ok(seen, 'the backend was called');
        assert.equal(seen.headers['x-user-id'], recipe.clientId);
        for (const [header, value] of Object.entries(recipe.expected))
          assert.equal(seen.headers[header], value, header);
        assert.equal(seen.headers.authorization, undefined, 'the token is not passed through');
      } finally {
        await gw.close();
        await idp.close();
      }
    });

  test('Keycloak: a token of the same realm for another audience ("account") is refused', async () => {
    const recipe = RECIPES[3];
    assert.ok(recipe);
    const idp = await startProviderLike({ ...recipe, audience: 'account' });
    const gw = await startConfiguredGateway({
      backends: [fixtureBackendConfig(backend.baseUrl)],
      auth: {
        devIdentityProvider: { enabled: false },
        jwt: { issuer: idp.issuer, audience: GATEWAY_MCP, mode: 'required' },
      },
    });
    const { app } = gw;
    try {
      const key = await gw.issueKey({ application: 'a' });
      const issued = await fetch(idp.tokenEndpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: recipe.clientId,
          client_secret: 'a-secret-long-enough-for-the-test',
          resource: recipe.resource,
        }).toString(),
      });
      const { access_token } = (await issued.json()) as { access_token: string };
      const response = await app.inject({
        method: 'POST',
        url: '/mcp',
        headers: {
          ...MCP_HEADERS,
          'mcp-protocol-version': '2025-06-18',
          'ocp-apim-subscription-key': key,
          authorization: `Bearer ${access_token}`,
        },
        payload: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      });
      assert.equal(response.statusCode, 401);
      assert.match(String(response.headers['www-authenticate']), /invalid_token/);
    } finally {
      await gw.close();
      await idp.close();
    }
  });
});
