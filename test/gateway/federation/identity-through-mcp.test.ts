// Identity to upstream MCP servers through the gateway's own endpoint (issue 28, "Identity to upstream MCP
// servers": token exchange (RFC 8693) at a configured authorization server, "with the development server
// supporting the grant so it is tested end to end"; "each call carries the token of the user on whose behalf
// the agent acts. Never the gateway's own credentials for one user's call to another user's data").
//
// An agent calls `POST /mcp` with a subscription key and Alice's or Bob's token; the gateway lists the
// upstream's tools with its own discovery credential (mcp.headers), and each call goes out with a token the
// development server issued for that user in exchange (audience the upstream). The upstream (TypeScript SDK)
// verifies every bearer itself against the development server's keys and answers whose token it was.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createPublicKey, verify as verifySignature, type JsonWebKey } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { z } from 'zod';
import { createDevIdp } from '../../../src/gateway/auth/dev-idp/idp.js';
import { freePort } from '../../helpers/free-port.js';
import { MCP_HEADERS, startConfiguredGateway, type ConfiguredGateway } from '../support/gateway.js';
import { devIdpMetadata, type DevIdpMetadata } from './support/dev-idp-user.js';
import { startSdkUpstream, type SdkUpstream } from './support/sdk-upstream.js';

const CLIENT_ID = 'toolgate-gateway';
const CLIENT_SECRET = 'exchange-secret-0123456789abcdef';
const DISCOVERY_KEY = 'discovery-key-0123456789';

let upstream: SdkUpstream;
let gw: ConfiguredGateway;
let gatewayUrl: string;
let metadata: DevIdpMetadata;
let keys = new Map<string, JsonWebKey>();
let subscriptionKey: string;
const tokens = new Map<string, string>();

/** The claims of a bearer JWT signed by the development server for this upstream; undefined otherwise. */
function verifiedClaims(headers: IncomingHttpHeaders): Record<string, unknown> | undefined {
  const match = /^Bearer ([\w-]+)\.([\w-]+)\.([\w-]+)$/.exec(headers.authorization ?? '');
  if (match === null) return undefined;
  const [, head = '', body = '', signature = ''] = match;
  const header = JSON.parse(Buffer.from(head, 'base64url').toString()) as { kid?: string };
  const jwk = keys.get(header.kid ?? '');
  if (jwk === undefined) return undefined;
  const valid = verifySignature(
    'sha256',
    Buffer.from(`${head}.${body}`),
    { key: createPublicKey({ key: jwk, format: 'jwk' }), dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  if (!valid) return undefined;
  const claims = JSON.parse(Buffer.from(body, 'base64url').toString()) as Record<string, unknown>;
  if (claims.iss !== metadata.issuer || claims.aud !== upstream.url) return undefined;
  if (typeof claims.exp !== 'number' || claims.exp * 1000 <= Date.now()) return undefined;
  return claims;
}

async function mcp(
  method: string,
  params: Record<string, unknown>,
  user?: string,
): Promise<Record<string, unknown>> {
  const token = user === undefined ? undefined : tokens.get(user);
  const response = await fetch(`${gatewayUrl}/mcp`, {
    method: 'POST',
    headers: {
      ...MCP_HEADERS,
      'mcp-protocol-version': '2025-11-25',
      'ocp-apim-subscription-key': subscriptionKey,
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await response.json()) as { result?: Record<string, unknown>; error?: unknown };
  assert.ok(body.result, `${method}: ${JSON.stringify(body)}`);
  return body.result;
}

describe('identity mode token-exchange through POST /mcp', () => {
  before(async () => {
    upstream = await startSdkUpstream({
      name: 'ledger',
      // A bearer must be a token the development server exchanged for this upstream; without one, only
      // the gateway's discovery credential is accepted (its own requests: negotiation and lists).
      authorize: (headers) => {
        if (headers.authorization !== undefined)
          return verifiedClaims(headers) !== undefined
            ? true
            : { wwwAuthenticate: 'Bearer error="invalid_token"' };
        return headers['x-discovery-key'] === DISCOVERY_KEY
          ? true
          : { wwwAuthenticate: 'Bearer error="invalid_request"' };
      },
      tools: [
        {
          name: 'whoami',
          description: 'Whose token the call carried.',
          outputSchema: { sub: z.string(), act: z.unknown() },
          handler: (_args, extra) => {
            const info = (extra as unknown as { requestInfo?: { headers: IncomingHttpHeaders } })
              .requestInfo;
            const claims = verifiedClaims(info?.headers ?? {});
            const who = { sub: String(claims?.sub ?? ''), act: claims?.act ?? null };
            return {
              content: [{ type: 'text', text: JSON.stringify(who) }],
              structuredContent: who,
            };
          },
        },
      ],
    });
    const port = await freePort();
    gatewayUrl = `http://127.0.0.1:${port}`;
    gw = await startConfiguredGateway({
      host: '127.0.0.1',
      port,
      auth: {
        devIdentityProvider: {
          tokenExchange: {
            clients: [
              { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, audiences: [upstream.url] },
            ],
          },
        },
      },
      backends: [
        {
          name: 'ledger',
          mcp: {
            url: upstream.url,
            headers: { 'x-discovery-key': DISCOVERY_KEY },
            securityClass: 'user-scoped',
          },
          identity: {
            mode: 'token-exchange',
            tokenExchange: {
              tokenEndpoint: `${gatewayUrl}/dev-idp/token`,
              clientId: CLIENT_ID,
              clientSecret: CLIENT_SECRET,
              resource: upstream.url,
            },
          },
          approve: 'all',
        },
      ],
    });
    await gw.app.listen({ port, host: '127.0.0.1' });
    metadata = await devIdpMetadata(gatewayUrl);
    const jwks = (await (await fetch(metadata.jwks_uri)).json()) as {
      keys: (JsonWebKey & { kid: string })[];
    };
    keys = new Map(jwks.keys.map((key) => [key.kid, key]));
    const idp = await createDevIdp({ dataDir: gw.config.dataDir });
    for (const user of ['alice', 'bob'])
      tokens.set(
        user,
        await idp.mintToken({ sub: user, audience: `${gatewayUrl}/mcp`, issuer: metadata.issuer }),
      );
    subscriptionKey = await gw.issueKey();
  });
  after(async () => {
    await gw?.close();
    await upstream?.close();
  });

  test('the upstream tool is listed under the backend prefix (listed with the discovery credential)', async () => {
    const listed = await mcp('tools/list', {}, 'alice');
    const names = (listed.tools as { name: string }[]).map((t) => t.name);
    assert.ok(names.includes('ledger_whoami'), names.join());
  });

  test("each user's call carries a token exchanged for that user: the upstream verifies it and answers whose", async () => {
    const users = ['alice', 'bob', 'alice', 'bob'];
    const answers = await Promise.all(
      users.map((user) => mcp('tools/call', { name: 'ledger_whoami', arguments: {} }, user)),
    );
    answers.forEach((answer, i) => {
      assert.notEqual(answer.isError, true, JSON.stringify(answer));
      assert.deepEqual(answer.structuredContent, { sub: users[i], act: { sub: CLIENT_ID } });
    });
    // Neither user's own gateway token ever reached the upstream.
    const sent = upstream.calls.map((call) => call.headers.authorization ?? '');
    for (const token of tokens.values()) assert.ok(!sent.includes(`Bearer ${token}`));
  });

  test('without a user token the call is refused by the gateway, and the upstream is not called', async () => {
    const before = upstream.calls.filter((c) => c.method === 'tools/call').length;
    const response = await fetch(`${gatewayUrl}/mcp`, {
      method: 'POST',
      headers: {
        ...MCP_HEADERS,
        'mcp-protocol-version': '2025-11-25',
        'ocp-apim-subscription-key': subscriptionKey,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'ledger_whoami', arguments: {} },
      }),
    });
    // The tool is user-scoped: the security class refuses an anonymous caller before any exchange.
    assert.equal(response.status, 401);
    assert.equal(upstream.calls.filter((c) => c.method === 'tools/call').length, before);
  });
});
