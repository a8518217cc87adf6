// Identity mode token-exchange end to end (issue 28: "token exchange (RFC 8693) at a configured
// authorization server, with the development server supporting the grant so it is tested end to end"):
// a backend configured as an upstream MCP server with identity mode token-exchange at the gateway's own
// development authorization server. alice (and bob) sign in as MCP clients do; the gateway's identity
// step exchanges each one's token and its MCP client calls the upstream with the result. The upstream (the
// TypeScript SDK server of support/sdk-upstream.ts) admits a request only with a Bearer JWT it verifies
// itself — the development server's JWKS, its issuer, the upstream's own URL as audience, unexpired — so a
// user token for the gateway, or none, is refused with 401.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createPublicKey, verify as verifySignature, type JsonWebKey } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { loadConfig } from '../../../src/config/load.js';
import { createDevIdp } from '../../../src/gateway/auth/dev-idp/idp.js';
import type { Caller } from '../../../src/gateway/caller.js';
import { UpstreamError } from '../../../src/gateway/federation/contracts.js';
import { McpUpstreamClient } from '../../../src/gateway/federation/mcp-client.js';
import { tokenExchangeProvider } from '../../../src/gateway/federation/token-exchange.js';
import { freePort } from '../../helpers/free-port.js';
import { startFixtureBackend, type FixtureBackend } from '../support/fixture-backend.js';
import {
  fixtureBackendConfig,
  startConfiguredGateway,
  type ConfiguredGateway,
} from '../support/gateway.js';
import { devIdpMetadata, signInUser, type DevIdpMetadata } from './support/dev-idp-user.js';
import { startSdkUpstream, type SdkUpstream } from './support/sdk-upstream.js';

const CLIENT_ID = 'toolgate-gateway';
const CLIENT_SECRET = 'exchange-secret-0123456789abcdef';

let fixture: FixtureBackend;
let upstream: SdkUpstream;
let gw: ConfiguredGateway;
let gatewayUrl: string;
let metadata: DevIdpMetadata;
let keys: Map<string, JsonWebKey>;
/** The verified claims of every token the upstream admitted, in order. */
const admitted: Record<string, unknown>[] = [];

/**
 * The upstream's bearer check, as a resource server does it (RFC 6750, RFC 9068): a JWT signed with a key
 * of the development server's JWKS (ES256), `iss` that server, `aud` this upstream, unexpired.
 */
function checkBearer(headers: IncomingHttpHeaders): true | { wwwAuthenticate: string } {
  const refuse = (why: string) => ({
    wwwAuthenticate: `Bearer error="invalid_token", error_description="${why}"`,
  });
  const match = /^Bearer ([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/.exec(
    headers.authorization ?? '',
  );
  if (match === null) return refuse('no bearer JWT');
  const [, head = '', body = '', signature = ''] = match;
  const header = JSON.parse(Buffer.from(head, 'base64url').toString()) as { kid?: string };
  const jwk = keys.get(header.kid ?? '');
  if (jwk === undefined) return refuse('unknown key');
  const valid = verifySignature(
    'sha256',
    Buffer.from(`${head}.${body}`),
    { key: createPublicKey({ key: jwk, format: 'jwk' }), dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  if (!valid) return refuse('bad signature');
  const claims = JSON.parse(Buffer.from(body, 'base64url').toString()) as Record<string, unknown>;
  if (claims.iss !== metadata.issuer) return refuse('another issuer');
  if (claims.aud !== upstream.url) return refuse('not for this upstream');
  if (typeof claims.exp !== 'number' || claims.exp * 1000 <= Date.now()) return refuse('expired');
  admitted.push(claims);
  return true;
}

before(async () => {
  fixture = await startFixtureBackend();
  upstream = await startSdkUpstream({ authorize: (headers) => checkBearer(headers) });
  const port = await freePort();
  gw = await startConfiguredGateway({
    host: '127.0.0.1',
    port,
    backends: [fixtureBackendConfig(fixture.baseUrl)],
    auth: {
      devIdentityProvider: {
        autoLogin: 'alice',
        tokenExchange: {
          clients: [
            { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, audiences: [upstream.url] },
          ],
        },
      },
    },
  });
  await gw.app.listen({ port, host: '127.0.0.1' });
  gatewayUrl = `http://127.0.0.1:${port}`;
  metadata = await devIdpMetadata(gatewayUrl);
  const jwks = (await (await fetch(metadata.jwks_uri)).json()) as {
    keys: (JsonWebKey & { kid: string })[];
  };
  keys = new Map(jwks.keys.map((key) => [key.kid, key]));
});

after(async () => {
  await gw.close();
  await upstream.close();
  await fixture.close();
});

/** The upstream as configuration describes it: `gateway.backends[]` with mcp and identity token-exchange. */
function configuredUpstream() {
  const config = loadConfig({
    env: {},
    overrides: {
      gateway: {
        backends: [
          {
            name: 'notes',
            mcp: { url: upstream.url },
            identity: {
              mode: 'token-exchange',
              tokenExchange: {
                tokenEndpoint: metadata.token_endpoint,
                clientId: CLIENT_ID,
                clientSecret: CLIENT_SECRET,
                resource: upstream.url,
              },
            },
          },
        ],
      },
    },
  });
  const [backend] = config.gateway.backends;
  assert.ok(backend?.mcp !== undefined);
  return {
    identity: tokenExchangeProvider(config.gateway.backends),
    client: new McpUpstreamClient({ ...backend, mcp: backend.mcp }),
  };
}

function callerOf(subject: string, token: string): Caller {
  return {
    requestId: `r-${subject}`,
    clientIp: '127.0.0.1',
    subscription: {
      id: 's1',
      application: 'agent',
      environment: 'development',
      tools: 'all',
      rateLimitPerMinute: null,
    },
    user: { subject, claims: { sub: subject }, expiresAt: 0, tokenHash: 'x' },
    authorization: `Bearer ${token}`,
  };
}

test('issue 28: the upstream receives, for alice, a token exchanged at the development server — its own audience, sub alice, act the gateway — never her gateway token', async () => {
  const { identity, client } = configuredUpstream();
  try {
    const alice = await signInUser(metadata, `${gatewayUrl}/mcp`, 'openid');
    const credentials = await identity(callerOf('alice', alice.accessToken), 'notes');
    assert.equal(credentials.kind, 'headers');
    if (credentials.kind !== 'headers') return;
    admitted.length = 0;
    const result = await client.request(
      'tools/call',
      { name: 'echo', arguments: { message: 'hello' } },
      { headers: credentials.headers },
    );
    assert.deepEqual(result.content, [{ type: 'text', text: 'echo: hello' }]);
    assert.ok(admitted.length >= 1, 'the upstream verified the token itself');
    for (const claims of admitted) {
      assert.equal(claims.sub, 'alice');
      assert.equal(claims.aud, upstream.url);
      assert.deepEqual(claims.act, { sub: CLIENT_ID });
    }
    const sent = upstream.calls.map((call) => call.headers.authorization);
    assert.ok(!sent.includes(`Bearer ${alice.accessToken}`), "alice's gateway token never left");
  } finally {
    await client.close();
  }
});

test("two users: each call carries its own user's exchanged token (bob's call is bob's at the upstream)", async () => {
  const { identity, client } = configuredUpstream();
  try {
    const alice = await signInUser(metadata, `${gatewayUrl}/mcp`, 'openid');
    const idp = await createDevIdp({ dataDir: gw.config.dataDir });
    const bobToken = await idp.mintToken({
      sub: 'bob',
      audience: `${gatewayUrl}/mcp`,
      issuer: metadata.issuer,
    });
    admitted.length = 0;
    for (const [subject, token] of [
      ['alice', alice.accessToken],
      ['bob', bobToken],
      ['alice', alice.accessToken],
    ] as const) {
      const credentials = await identity(callerOf(subject, token), 'notes');
      if (credentials.kind !== 'headers') assert.fail('headers expected');
      const before = admitted.length;
      await client.request(
        'tools/call',
        { name: 'echo', arguments: { message: subject } },
        { headers: credentials.headers },
      );
      const seen = admitted.slice(before).map((claims) => claims.sub);
      assert.ok(seen.length > 0 && seen.every((sub) => sub === subject), `${subject}: ${seen}`);
    }
  } finally {
    await client.close();
  }
});

test("the upstream refuses what is not an exchanged token for it: none, or the user's own gateway token (401 → unauthorized)", async () => {
  const { client } = configuredUpstream();
  try {
    const alice = await signInUser(metadata, `${gatewayUrl}/mcp`, 'openid');
    const attempts: Record<string, string>[] = [
      {},
      { authorization: `Bearer ${alice.accessToken}` },
    ];
    for (const headers of attempts) {
      try {
        await client.request(
          'tools/call',
          { name: 'echo', arguments: { message: 'x' } },
          { headers },
        );
        assert.fail('expected a refusal');
      } catch (error) {
        assert.ok(error instanceof UpstreamError, String(error));
        assert.equal(error.reason, 'unauthorized');
      }
    }
  } finally {
    await client.close();
  }
});
