// The real gateway pipeline (subscription key → JWT → security class → quotas → identity forwarding)
// in front of a backend that records every request it receives.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import type { FastifyInstance } from 'fastify';
import {
  SignJWT,
  exportJWK,
  generateKeyPair,
  jwtVerify,
  createLocalJWKSet,
  type CryptoKey,
} from 'jose';
import type { Database } from '../../src/shared/db/types.js';
import type { LogCapture } from '../helpers/capture.js';
import { startFixtureBackend, type FixtureBackend } from './support/fixture-backend.js';
import { fixtureBackendConfig, MCP_HEADERS, startConfiguredGateway } from './support/gateway.js';

const ISSUER = 'https://idp.example.test';
const AUDIENCE = 'http://127.0.0.1:8080/mcp';
const SHARED = 'gateway-to-backend-secret-42';

interface Built {
  app: FastifyInstance;
  db: Database;
  key: string;
  restrictedKey: string;
  logs: LogCapture;
}

describe('gateway pipeline', () => {
  let backend: FixtureBackend;
  let privateKey: CryptoKey;
  let jwk: Record<string, unknown>;

  before(async () => {
    backend = await startFixtureBackend();
    const pair = await generateKeyPair('ES256');
    privateKey = pair.privateKey;
    jwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'ES256' };
  });
  after(async () => backend.close());

  async function build(
    identity: Record<string, unknown>,
    rateLimit: Record<string, unknown> = {},
    metrics: Record<string, unknown> = {},
  ): Promise<Built> {
    const gw = await startConfiguredGateway(
      {
        backends: [fixtureBackendConfig(backend.baseUrl, { identity })],
        auth: {
          devIdentityProvider: { enabled: false },
          jwt: { issuer: ISSUER, audience: AUDIENCE, staticKeys: [{ jwk }], forwardClaims: {} },
        },
        rateLimit,
        metrics,
      },
      { logLevel: 'info' },
    );
    return {
      app: gw.app,
      db: gw.db,
      logs: gw.logs,
      key: await gw.issueKey(),
      restrictedKey: await gw.issueKey({ application: 'narrow', tools: ['fetchBankDetails'] }),
    };
  }

  async function close(built: Built) {
    await built.app.close();
    await built.db.close();
  }

  const token = (sub: string, claims: Record<string, unknown> = {}) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setSubject(sub)
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(privateKey);

  function call(
    app: FastifyInstance,
    headers: Record<string, string>,
    method: string,
    params?: unknown,
  ) {
    return app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { ...MCP_HEADERS, 'mcp-protocol-version': '2025-06-18', ...headers },
      payload: { jsonrpc: '2.0', id: 7, method, ...(params === undefined ? {} : { params }) },
    });
  }

  test('gateway spec §Authentication 6: a user-scoped tool without a valid JWT is 401 and the backend is never called', async () => {
    const built = await build({ mode: 'headers', sharedSecret: SHARED });
    try {
      const before = backend.requests.length;
      const response = await call(
        built.app,
        { 'ocp-apim-subscription-key': built.key },
        'tools/call',
        {
          name: 'getMyAccountBalance',
          arguments: {},
        },
      );
      assert.equal(response.statusCode, 401);
      assert.equal(response.json().error.code, -31001);
      assert.equal(
        response.headers['www-authenticate'],
        'Bearer resource_metadata="http://127.0.0.1:8080/.well-known/oauth-protected-resource/mcp", scope="openid profile offline_access"',
      );
      const expired = await call(
        built.app,
        { 'ocp-apim-subscription-key': built.key, authorization: 'Bearer not.a.jwt' },
        'tools/call',
        { name: 'getMyAccountBalance', arguments: {} },
      );
      assert.equal(expired.statusCode, 401);
      assert.match(String(expired.headers['www-authenticate']), /error="invalid_token"/);
      assert.equal(backend.requests.length, before, 'no request reached the backend');
    } finally {
      await close(built);
    }
  });

  test('headers mode: client-supplied identity headers are stripped; the backend sees the verified user and the gateway key', async () => {
    const built = await build({
      mode: 'headers',
      sharedSecret: SHARED,
      claims: { email: 'X-User-Email' },
    });
    try {
      const before = backend.requests.length;
      const response = await call(
        built.app,
        {
          'ocp-apim-subscription-key': built.key,
          authorization: `Bearer ${await token('alice', { email: 'alice@example.com' })}`,
          'x-user-id': 'mallory',
          'x-user-email': 'mallory@evil.test',
          'x-toolgate-gateway-key': 'forged',
          cookie: 'session=stolen',
        },
        'tools/call',
        { name: 'getMyAccountBalance', arguments: {} },
      );
      assert.equal(response.statusCode, 200, response.body);
      const seen = backend.requests.slice(before);
      assert.equal(seen.length, 1);
      const headers = seen[0]?.headers ?? {};
      assert.equal(headers['x-user-id'], 'alice');
      assert.equal(headers['x-user-email'], 'alice@example.com');
      assert.equal(headers['x-toolgate-gateway-key'], SHARED);
      assert.equal(headers['x-toolgate-application'], 'test-agent');
      assert.equal(headers.authorization, undefined, 'the user token is not passed upstream');
      assert.equal(headers['ocp-apim-subscription-key'], undefined);
      assert.equal(headers.cookie, undefined);
    } finally {
      await close(built);
    }
  });

  test('assertion mode: the backend receives a gateway-signed assertion verifiable with the published JWKS', async () => {
    const built = await build({ mode: 'assertion' });
    try {
      const jwks = await built.app.inject({ url: '/.well-known/jwks.json' });
      assert.equal(jwks.statusCode, 200);
      const before = backend.requests.length;
      const response = await call(
        built.app,
        {
          'ocp-apim-subscription-key': built.key,
          authorization: `Bearer ${await token('bob')}`,
          'x-toolgate-identity': 'forged',
        },
        'tools/call',
        { name: 'getMyAccountBalance', arguments: {} },
      );
      assert.equal(response.statusCode, 200, response.body);
      const assertion = String(backend.requests.slice(before)[0]?.headers['x-toolgate-identity']);
      const { payload, protectedHeader } = await jwtVerify(
        assertion,
        createLocalJWKSet(jwks.json()),
        {
          issuer: 'http://127.0.0.1:8080',
          audience: new URL(backend.baseUrl).origin,
        },
      );
      assert.equal(payload.sub, 'bob');
      assert.equal(payload.app, 'test-agent');
      assert.equal(protectedHeader.typ, 'identity-assertion+jwt');
      assert.ok((payload.exp ?? 0) - (payload.iat ?? 0) <= 60);
    } finally {
      await close(built);
    }
  });

  test('a look-alike subject ("alice ", " alice", "\\talice", "alice\\t", "anonymous") is refused 401 SUBJECT_INVALID before any backend call, in headers and assertion mode', async () => {
    for (const identity of [{ mode: 'headers', sharedSecret: SHARED }, { mode: 'assertion' }]) {
      const built = await build(identity);
      try {
        const before = backend.requests.length;
        for (const sub of ['alice ', ' alice', '\talice', 'alice\t', 'anonymous']) {
          const response = await call(
            built.app,
            {
              'ocp-apim-subscription-key': built.key,
              authorization: `Bearer ${await token(sub)}`,
            },
            'tools/call',
            { name: 'getMyAccountBalance', arguments: {} },
          );
          assert.equal(response.statusCode, 401, `${identity.mode} ${JSON.stringify(sub)}`);
          const error = response.json().error as { code: number; data: { reason: string } };
          assert.equal(error.code, -31001);
          assert.equal(error.data.reason, 'SUBJECT_INVALID');
        }
        assert.equal(backend.requests.length, before, 'no request reached the backend');
        const exact = await call(
          built.app,
          {
            'ocp-apim-subscription-key': built.key,
            authorization: `Bearer ${await token('alice')}`,
          },
          'tools/call',
          { name: 'getMyAccountBalance', arguments: {} },
        );
        assert.equal(exact.statusCode, 200, exact.body);
      } finally {
        await close(built);
      }
    }
  });

  test('two Authorization headers (valid first, garbage second) are refused 401 TOKEN_MALFORMED before any backend call', async () => {
    const built = await build({ mode: 'passthrough' });
    try {
      const base = await built.app.listen({ host: '127.0.0.1', port: 0 });
      const before = backend.requests.length;
      const body = JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'getMyAccountBalance', arguments: {} },
      });
      const send = (authorizations: string[]) =>
        new Promise<{ status: number; body: string }>((resolve, reject) => {
          // The raw-headers form of the options keeps both headers on the wire.
          const raw = [
            'Host',
            new URL(base).host,
            ...Object.entries({ ...MCP_HEADERS, 'mcp-protocol-version': '2025-06-18' }).flat(),
            'Ocp-Apim-Subscription-Key',
            built.key,
            ...authorizations.flatMap((a) => ['Authorization', a]),
            'Content-Length',
            String(Buffer.byteLength(body)),
          ];
          const req = httpRequest(
            `${base}/mcp`,
            { method: 'POST', headers: raw, agent: false },
            (res) => {
              let text = '';
              res.on('data', (c: Buffer) => (text += c.toString()));
              res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
            },
          );
          req.on('error', reject);
          req.end(body);
        });
      const valid = `Bearer ${await token('alice')}`;
      const twice = await send([valid, 'Bearer garbage']);
      assert.equal(twice.status, 401, twice.body);
      assert.equal(JSON.parse(twice.body).error.data.reason, 'TOKEN_MALFORMED');
      assert.equal(backend.requests.length, before, 'no request reached the backend');
      const once = await send([valid]);
      assert.equal(once.status, 200, once.body);
    } finally {
      await close(built);
    }
  });

  test('RFC 9728: protected-resource metadata names the MCP resource, the issuer and the bearer method', async () => {
    const built = await build({ mode: 'headers' });
    try {
      for (const path of [
        '/.well-known/oauth-protected-resource',
        '/.well-known/oauth-protected-resource/mcp',
      ]) {
        const response = await built.app.inject({ url: path });
        assert.equal(response.statusCode, 200, path);
        const body = response.json();
        assert.equal(body.resource, AUDIENCE);
        assert.deepEqual(body.authorization_servers, [ISSUER]);
        assert.deepEqual(body.bearer_methods_supported, ['header']);
      }
    } finally {
      await close(built);
    }
  });

  test('each MCP request leaves one access line naming method, tool, backend and upstream outcome, without credentials', async () => {
    const built = await build({ mode: 'headers', sharedSecret: SHARED });
    try {
      const bearer = await token('alice');
      const headers = { 'ocp-apim-subscription-key': built.key, authorization: `Bearer ${bearer}` };
      const ok = await call(built.app, { ...headers, 'x-request-id': 'log-ok' }, 'tools/call', {
        name: 'getMyAccountBalance',
        arguments: {},
      });
      assert.equal(ok.statusCode, 200, ok.body);
      const invalid = await call(
        built.app,
        { ...headers, 'x-request-id': 'log-bad' },
        'tools/call',
        {
          name: 'getPayment',
          arguments: {},
        },
      );
      assert.equal(invalid.json().result.isError, true);
      const unknown = await call(
        built.app,
        { ...headers, 'x-request-id': 'log-unknown' },
        'tools/call',
        {
          name: 'noSuchTool',
          arguments: {},
        },
      );
      assert.equal(unknown.json().error.code, -32602);
      const refused = await call(built.app, { 'x-request-id': 'log-refused' }, 'tools/call', {
        name: 'getMyAccountBalance',
        arguments: {},
      });
      assert.equal(refused.statusCode, 401);

      const lines = (id: string) => built.logs.records().filter((r) => r.reqId === id);
      assert.equal(lines('log-ok').length, 1);
      assert.deepEqual(
        pick(lines('log-ok')[0], [
          'msg',
          'method',
          'url',
          'status',
          'rpcMethod',
          'tool',
          'backend',
          'upstream',
          'toolError',
        ]),
        {
          msg: 'request',
          method: 'POST',
          url: '/mcp',
          status: 200,
          rpcMethod: 'tools/call',
          tool: 'getMyAccountBalance',
          backend: 'fixture',
          upstream: 200,
        },
      );
      assert.equal(typeof lines('log-ok')[0]?.upstreamMs, 'number');
      assert.equal(typeof lines('log-ok')[0]?.ms, 'number');
      assert.deepEqual(
        pick(lines('log-bad')[0], ['tool', 'upstream', 'toolError']),
        { tool: 'getPayment', toolError: true },
        'invalid arguments: the tool is named, the backend was not called',
      );
      assert.deepEqual(pick(lines('log-unknown')[0], ['status', 'rpcError', 'tool']), {
        status: 200,
        rpcError: -32602,
      });
      assert.deepEqual(
        pick(lines('log-refused')[0], ['status', 'rpcMethod', 'rpcError', 'tool']),
        { status: 401, rpcMethod: 'tools/call', rpcError: -31001 },
        'a call refused before dispatch still names its method',
      );
      assert.equal(built.logs.text.includes(built.key), false, 'no subscription key');

      // The same outcomes are counted on /metrics, with bounded labels.
      await call(built.app, headers, 'evil/method-name-from-a-client');
      const metrics = (await built.app.inject({ method: 'GET', url: '/metrics' })).body;
      const value = (line: string) => {
        const found = metrics.split('\n').find((l) => l.startsWith(`${line} `));
        return found === undefined ? undefined : Number(found.slice(line.length + 1));
      };
      assert.equal(value('toolgate_mcp_requests_total{method="tools/call",status="200"}'), 3);
      assert.equal(value('toolgate_mcp_requests_total{method="tools/call",status="401"}'), 1);
      assert.equal(value('toolgate_mcp_requests_total{method="other",status="200"}'), 1);
      assert.equal(
        value(
          'toolgate_tool_calls_total{tool="getMyAccountBalance",backend="fixture",outcome="ok"}',
        ),
        1,
      );
      assert.equal(
        value(
          'toolgate_tool_calls_total{tool="getPayment",backend="fixture",outcome="invalid_arguments"}',
        ),
        1,
      );
      assert.equal(value('toolgate_upstream_duration_seconds_count{backend="fixture"}'), 1);
      assert.equal(value('toolgate_mcp_request_duration_seconds_count{method="tools/call"}'), 4);
      assert.ok(!metrics.includes('noSuchTool'), 'unknown tool names never become labels');
      assert.ok(!metrics.includes('evil/'), 'unknown methods never become labels');
      assert.equal(built.logs.text.includes(bearer), false, 'no user token');
    } finally {
      await close(built);
    }
  });

  test('a subscription sees and calls only its own tools', async () => {
    const built = await build({ mode: 'headers' });
    try {
      const list = await call(
        built.app,
        { 'ocp-apim-subscription-key': built.restrictedKey },
        'tools/list',
      );
      assert.deepEqual(
        list.json().result.tools.map((t: { name: string }) => t.name),
        ['fetchBankDetails'],
      );
      const other = await call(
        built.app,
        { 'ocp-apim-subscription-key': built.restrictedKey },
        'tools/call',
        {
          name: 'getPayment',
          arguments: { id: 'x' },
        },
      );
      assert.equal(other.json().error.code, -32602);
    } finally {
      await close(built);
    }
  });

  test('quotas over MCP: 429 with Retry-After, RateLimit headers and a JSON-RPC error naming the scope', async () => {
    const built = await build({ mode: 'headers' }, { anonymous: { limit: 3, windowSeconds: 60 } });
    try {
      const headers = { 'ocp-apim-subscription-key': built.key };
      for (let i = 0; i < 3; i++) {
        const ok = await call(built.app, headers, 'ping');
        assert.equal(ok.statusCode, 200);
        assert.match(String(ok.headers.ratelimit), new RegExp(`"ip";r=${2 - i};t=\\d+`));
      }
      const over = await call(built.app, headers, 'ping');
      assert.equal(over.statusCode, 429);
      assert.ok(Number(over.headers['retry-after']) >= 1);
      assert.match(String(over.headers['ratelimit-policy']), /"ip";q=3;w=60/);
      const error = over.json().error;
      assert.equal(error.code, -31029);
      assert.equal(error.data.scope, 'ip');
      assert.equal(error.data.limit, 3);
      assert.equal(over.json().id, 7);

      // The decisions are counted on /metrics (labels: outcome and source only, never the key or IP).
      const metrics = await built.app.inject({ method: 'GET', url: '/metrics' });
      assert.equal(metrics.statusCode, 200);
      assert.match(String(metrics.headers['content-type']), /^text\/plain; version=0\.0\.4/);
      assert.match(
        metrics.body,
        /^toolgate_ratelimit_decisions_total\{outcome="allowed",source="memory"\} 3$/m,
      );
      assert.match(
        metrics.body,
        /^toolgate_ratelimit_decisions_total\{outcome="rejected",source="memory"\} 1$/m,
      );
      assert.match(metrics.body, /^process_cpu_user_seconds_total /m);
      assert.ok(!metrics.body.includes(built.key.slice(-8)), 'no key material in metrics');
    } finally {
      await close(built);
    }
  });

  test('every message of a batch counts against every quota; refused messages get their own error; 429 only when all are refused', async () => {
    const built = await build(
      { mode: 'headers' },
      {
        anonymous: { limit: 8, windowSeconds: 60 },
        perTool: { fetchBankDetails: { limit: 5, windowSeconds: 60 } },
      },
    );
    try {
      const batch = (ids: number[], notifications = 0) =>
        built.app.inject({
          method: 'POST',
          url: '/mcp',
          headers: {
            ...MCP_HEADERS,
            'mcp-protocol-version': '2025-03-26',
            'ocp-apim-subscription-key': built.key,
          },
          payload: [
            ...ids.map((id) => ({
              jsonrpc: '2.0',
              id,
              method: 'tools/call',
              params: {
                name: 'fetchBankDetails',
                arguments: { body: { iban: 'DE89370400440532013000' } },
              },
            })),
            ...Array.from({ length: notifications }, () => ({
              jsonrpc: '2.0',
              method: 'notifications/initialized',
            })),
          ],
        });
      const before = backend.requests.length;
      // 7 tool calls against a per-tool quota of 5: five reach the backend, two are refused in place.
      const first = await batch([1, 2, 3, 4, 5, 6, 7]);
      assert.equal(first.statusCode, 200, first.body);
      const answers = first.json() as {
        id: number;
        error?: { code: number; data: { scope: string; retryAfterSeconds: number } };
      }[];
      assert.equal(answers.length, 7, first.body.slice(0, 600));
      const refused = answers.filter((a) => a.error !== undefined);
      assert.deepEqual(
        refused.map((a) => a.id),
        [6, 7],
      );
      for (const a of refused) {
        assert.equal(a.error?.code, -31029);
        assert.equal(a.error?.data.scope, 'tool');
        assert.ok((a.error?.data.retryAfterSeconds ?? 0) >= 1);
      }
      assert.equal(backend.requests.length - before, 5, 'five backend calls, not seven');
      // Refused messages are not counted: the IP quota (8) was charged 5. Notifications count too.
      const second = await batch([8, 9], 3);
      assert.equal(second.statusCode, 200, 'some messages were admitted (the notifications)');
      assert.deepEqual(
        (second.json() as { id: number; error: { data: { scope: string } } }[]).map((a) => [
          a.id,
          a.error.data.scope,
        ]),
        [
          [8, 'tool'],
          [9, 'tool'],
        ],
      );
      const third = await batch([10], 2);
      assert.equal(third.statusCode, 429, 'every message refused: the batch is refused');
      assert.ok(Number(third.headers['retry-after']) >= 1);
      assert.deepEqual(
        (third.json() as { id: number; error: { data: { scope: string } } }[]).map((a) => [
          a.id,
          a.error.data.scope,
        ]),
        [[10, 'ip']],
      );
      const single = await call(built.app, { 'ocp-apim-subscription-key': built.key }, 'ping');
      assert.equal(single.statusCode, 429);
      assert.equal(single.json().error.data.scope, 'ip', 'the batches used up the IP quota');
      assert.equal(backend.requests.length - before, 5);
    } finally {
      await close(built);
    }
  });

  test('gateway.metrics.enabled: false serves no /metrics', async () => {
    const built = await build({ mode: 'headers' }, {}, { enabled: false });
    try {
      assert.equal((await built.app.inject({ method: 'GET', url: '/metrics' })).statusCode, 404);
    } finally {
      await close(built);
    }
  });
});

function pick(record: Record<string, unknown> | undefined, keys: readonly string[]) {
  const out: Record<string, unknown> = {};
  for (const k of keys) if (record?.[k] !== undefined) out[k] = record[k];
  return out;
}
