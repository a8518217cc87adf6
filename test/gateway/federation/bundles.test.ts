// Tool bundles (issue 28: "gateway.bundles.<name>: a chosen set of tools across backends served at
// /mcp/<name> (its own protected-resource metadata and audience), so a team's client lists only its tools.
// Subscriptions can be limited to bundles. Plain /mcp stays as today."), through the configured gateway:
// subscription keys, user tokens, quotas.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SignJWT, exportJWK, generateKeyPair, type CryptoKey } from 'jose';
import { loadConfig } from '../../../src/config/load.js';
import {
  Bundles,
  bundleAudiences,
  expandBundle,
  bundleResourceUrl,
} from '../../../src/gateway/federation/bundles.js';
import type { Catalogue, Tool } from '../../../src/gateway/catalogue/types.js';
import { SubscriptionStore } from '../../../src/gateway/auth/subscriptions/store.js';
import { openSqlite } from '../../../src/shared/db/sqlite.js';
import { migrateGatewayDatabase } from '../../../src/gateway/database.js';
import { startFixtureBackend, type FixtureBackend } from '../support/fixture-backend.js';
import {
  fixtureBackendConfig,
  MCP_HEADERS,
  startConfiguredGateway,
  type ConfiguredGateway,
} from '../support/gateway.js';

const ISSUER = 'https://idp.example.test';
const MCP_URL = 'http://127.0.0.1:8080/mcp';
const PETSTORE = join(process.cwd(), 'test/fixtures/openapi/petstore-30.yaml');
const FIXTURE_TOOLS = [
  'cancelPayment',
  'createPayment',
  'fetchBankDetails',
  'getMyAccountBalance',
  'getPayment',
  'slowOperation',
  'test_error_handling',
  'test_simple_text',
];

function tool(name: string, backend: string): Tool {
  return {
    name,
    backend,
    description: name,
    inputSchema: { type: 'object' },
    securityClass: 'optional',
  } as unknown as Tool;
}

describe('bundle expansion (issue 28: "a chosen set of tools across backends")', () => {
  const catalogue = (tools: Tool[]): Catalogue =>
    ({
      tools,
      byName: new Map(tools.map((t) => [t.name, t])),
      warnings: [],
    }) as unknown as Catalogue;
  const products = { reads: ['getPayment', 'getPet'] };

  test('backend:NAME is every tool of that backend, product:NAME the product, a name itself', () => {
    const scope = expandBundle(
      'team',
      {
        tools: ['backend:pets', 'product:reads', 'fetchBankDetails'],
        resources: ['ui://'],
        prompts: ['p1'],
      },
      catalogue([
        tool('getPet', 'pets'),
        tool('listPets', 'pets'),
        tool('getPayment', 'bank'),
        tool('cancelPayment', 'bank'),
      ]),
      products,
    );
    assert.deepEqual([...scope.tools].sort(), [
      'fetchBankDetails',
      'getPayment',
      'getPet',
      'listPets',
    ]);
    assert.equal(scope.tools.has('cancelPayment'), false, "another backend's tool is not in it");
    assert.deepEqual(scope.resources, ['ui://']);
    assert.deepEqual([...scope.prompts], ['p1']);
  });

  test('the scope follows the catalogue: an upstream tool that appears joins backend:NAME, one that goes leaves', () => {
    const view = { revision: 1, catalogue: catalogue([tool('up_a', 'up')]) };
    const bundles = new Bundles(
      { b: { tools: ['backend:up'], resources: [], prompts: [] } },
      {},
      view,
    );
    const first = bundles.requireScope('b');
    assert.deepEqual([...first.tools], ['up_a']);
    assert.equal(bundles.requireScope('b'), first, 'kept while the revision stands');
    view.revision = 2;
    view.catalogue = catalogue([tool('up_b', 'up'), tool('other', 'x')]);
    assert.deepEqual([...bundles.requireScope('b').tools], ['up_b']);
    assert.equal(bundles.scope('nope'), undefined);
    assert.equal(bundles.scope('__proto__'), undefined, 'only configured names are bundles');
  });

  test('RFC 8707 audience: the bundle URL, never the plain MCP URL; a gateway-wide audience is accepted too', () => {
    assert.deepEqual(bundleAudiences(MCP_URL, 'team', MCP_URL), [`${MCP_URL}/team`]);
    assert.deepEqual(bundleAudiences(MCP_URL, 'team', 'api://toolgate'), [
      `${MCP_URL}/team`,
      'api://toolgate',
    ]);
    assert.equal(bundleResourceUrl(`${MCP_URL}/`, 'team'), `${MCP_URL}/team`);
  });
});

describe('bundle endpoints through the configured gateway', () => {
  let backend: FixtureBackend;
  let gw: ConfiguredGateway;
  let privateKey: CryptoKey;
  let key: string;

  before(async () => {
    backend = await startFixtureBackend();
    const pair = await generateKeyPair('ES256');
    privateKey = pair.privateKey;
    const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'ES256' };
    gw = await startConfiguredGateway({
      backends: [
        fixtureBackendConfig(backend.baseUrl),
        { name: 'pets', baseUrl: backend.baseUrl, openapi: { file: PETSTORE }, approve: 'all' },
      ],
      products: { petReads: ['getPet'] },
      bundles: {
        payments: {
          title: 'Payments team',
          instructions: 'Only the payment tools.',
          tools: ['backend:fixture'],
        },
        pets: { tools: ['product:petReads', 'test_simple_text'] },
      },
      auth: {
        devIdentityProvider: { enabled: false },
        jwt: { issuer: ISSUER, audience: MCP_URL, staticKeys: [{ jwk }], forwardClaims: {} },
      },
    });
    key = await gw.issueKey();
  });
  after(async () => {
    await gw.close();
    await backend.close();
  });

  const token = (audience: string) =>
    new SignJWT({})
      .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
      .setIssuer(ISSUER)
      .setAudience(audience)
      .setSubject('alice')
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(privateKey);

  function rpc(url: string, method: string, params: unknown, headers: Record<string, string> = {}) {
    return gw.app.inject({
      method: 'POST',
      url,
      headers: {
        ...MCP_HEADERS,
        'mcp-protocol-version': '2025-11-25',
        'ocp-apim-subscription-key': key,
        ...headers,
      },
      payload: { jsonrpc: '2.0', id: 3, method, params },
    });
  }
  const names = (body: { result: { tools: { name: string }[] } }) =>
    body.result.tools.map((t) => t.name).sort();

  test('tools/list at a bundle lists only its tools; /mcp lists them all (plain /mcp stays as today)', async () => {
    const payments = await rpc('/mcp/payments', 'tools/list', {});
    assert.equal(payments.statusCode, 200);
    assert.deepEqual(names(payments.json()), FIXTURE_TOOLS);
    const pets = await rpc('/mcp/pets', 'tools/list', {});
    assert.deepEqual(names(pets.json()), ['getPet', 'test_simple_text']);
    const all = names((await rpc('/mcp', 'tools/list', {})).json());
    assert.ok(all.includes('getPet') && all.includes('removePet') && all.includes('createPayment'));
    assert.ok(all.length > FIXTURE_TOOLS.length + 1);
  });

  test('tools/call of a tool outside the bundle: unknown tool, the backend never reached', async () => {
    const before = backend.requests.length;
    const outside = await rpc('/mcp/pets', 'tools/call', {
      name: 'getPayment',
      arguments: { externalReferenceNo: 'X1' },
    });
    assert.equal(outside.statusCode, 200);
    assert.equal(outside.json().error.code, -32602);
    assert.match(outside.json().error.message, /getPayment/);
    assert.equal(backend.requests.length, before);
    const inside = await rpc('/mcp/pets', 'tools/call', {
      name: 'test_simple_text',
      arguments: {},
    });
    assert.ok(inside.json().result, 'a tool of the bundle is called');
    assert.notEqual(inside.json().result.isError, true);
  });

  test('initialize at a bundle: its title and instructions, the server name <serverName>/<bundle>', async () => {
    const init = await rpc('/mcp/payments', 'initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 't', version: '1' },
    });
    const result = init.json().result;
    assert.equal(result.serverInfo.title, 'Payments team');
    assert.match(result.serverInfo.name, /\/payments$/);
    assert.equal(result.instructions, 'Only the payment tools.');
    const plain = (
      await rpc('/mcp', 'initialize', {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 't', version: '1' },
      })
    ).json().result;
    assert.equal(plain.serverInfo.title, undefined);
    assert.doesNotMatch(plain.serverInfo.name, /\//);
  });

  test('RFC 9728 §3.1: each bundle has its own protected-resource metadata; /mcp keeps its own', async () => {
    const doc = await gw.app.inject({
      method: 'GET',
      url: '/.well-known/oauth-protected-resource/mcp/payments',
    });
    assert.equal(doc.statusCode, 200);
    assert.equal(doc.json().resource, `${MCP_URL}/payments`);
    assert.deepEqual(doc.json().authorization_servers, [ISSUER]);
    assert.equal(doc.json().resource_name, 'Payments team');
    const plain = await gw.app.inject({
      method: 'GET',
      url: '/.well-known/oauth-protected-resource/mcp',
    });
    assert.equal(plain.json().resource, MCP_URL);
    const unknown = await gw.app.inject({
      method: 'GET',
      url: '/.well-known/oauth-protected-resource/mcp/nope',
    });
    assert.equal(unknown.statusCode, 404);
  });

  test("RFC 9728 §5.1: a 401 at a bundle points WWW-Authenticate at the bundle's metadata", async () => {
    const refused = await rpc(
      '/mcp/payments',
      'tools/list',
      {},
      { authorization: 'Bearer not.a.jwt' },
    );
    assert.equal(refused.statusCode, 401);
    assert.match(
      String(refused.headers['www-authenticate']),
      /resource_metadata="http:\/\/127\.0\.0\.1:8080\/\.well-known\/oauth-protected-resource\/mcp\/payments"/,
    );
    // A user-scoped tool called without a user at the bundle: the same metadata URL in the challenge.
    const anonymous = await rpc('/mcp/payments', 'tools/call', {
      name: 'getMyAccountBalance',
      arguments: {},
    });
    assert.equal(anonymous.statusCode, 401);
    assert.match(
      String(anonymous.headers['www-authenticate']),
      /oauth-protected-resource\/mcp\/payments"/,
    );
    const plain = await rpc('/mcp', 'tools/list', {}, { authorization: 'Bearer not.a.jwt' });
    assert.match(String(plain.headers['www-authenticate']), /oauth-protected-resource\/mcp"/);
  });

  test('RFC 8707: a token for /mcp is refused at /mcp/<bundle>, a token for the bundle at /mcp and at other bundles', async () => {
    const forPlain = `Bearer ${await token(MCP_URL)}`;
    const forPayments = `Bearer ${await token(`${MCP_URL}/payments`)}`;
    assert.equal(
      (await rpc('/mcp', 'tools/list', {}, { authorization: forPlain })).statusCode,
      200,
    );
    const wrong = await rpc('/mcp/payments', 'tools/list', {}, { authorization: forPlain });
    assert.equal(wrong.statusCode, 401);
    assert.equal(wrong.json().error.data.reason, 'AUDIENCE_MISMATCH');
    // The plain endpoint verified (and cached) that token first: the cache does not carry it over.
    assert.equal(
      (await rpc('/mcp/payments', 'tools/list', {}, { authorization: forPayments })).statusCode,
      200,
    );
    const back = await rpc('/mcp', 'tools/list', {}, { authorization: forPayments });
    assert.equal(back.statusCode, 401);
    assert.equal(back.json().error.data.reason, 'AUDIENCE_MISMATCH');
    assert.equal(
      (await rpc('/mcp/pets', 'tools/list', {}, { authorization: forPayments })).statusCode,
      401,
    );
  });

  test('a subscription limited to a bundle: refused (403) at /mcp and at other bundles, naming its bundles', async () => {
    const issued = await new SubscriptionStore(gw.db).create({
      application: 'payments-team',
      environment: 'development',
      bundles: ['payments'],
    });
    const limited = { 'ocp-apim-subscription-key': issued.primaryKey };
    const plain = await rpc('/mcp', 'tools/list', {}, limited);
    assert.equal(plain.statusCode, 403);
    assert.equal(plain.json().error.code, -31002);
    assert.equal(plain.json().error.data.reason, 'SUBSCRIPTION_BUNDLE_LIMITED');
    assert.deepEqual(plain.json().error.data.bundles, ['payments']);
    assert.match(plain.json().error.message, /payments/);
    const other = await rpc('/mcp/pets', 'tools/list', {}, limited);
    assert.equal(other.statusCode, 403);
    assert.equal(other.json().error.data.bundle, 'pets');
    const own = await rpc('/mcp/payments', 'tools/list', {}, limited);
    assert.equal(own.statusCode, 200);
    assert.deepEqual(names(own.json()), FIXTURE_TOOLS);
  });

  test('an unknown bundle path: 404 with a JSON-RPC error body', async () => {
    const reply = await rpc('/mcp/nope', 'tools/list', {});
    assert.equal(reply.statusCode, 404);
    assert.match(String(reply.headers['content-type']), /^application\/json/);
    const body = reply.json();
    assert.equal(body.jsonrpc, '2.0');
    assert.equal(body.error.code, -31004);
    assert.match(body.error.message, /payments, pets/);
    assert.equal((await gw.app.inject({ method: 'GET', url: '/mcp/nope/deeper' })).statusCode, 404);
  });
});

describe('quotas at bundle endpoints (issue 28: "the same keys, approval and quotas")', () => {
  test("a subscription's quota counts every endpoint together: /mcp and its bundles share it", async () => {
    const backend = await startFixtureBackend();
    const gw = await startConfiguredGateway({
      backends: [fixtureBackendConfig(backend.baseUrl)],
      bundles: { payments: { tools: ['backend:fixture'] } },
      auth: { devIdentityProvider: { enabled: false } },
    });
    try {
      const key = await gw.issueKey({ rateLimitPerMinute: 2 });
      const send = (url: string) =>
        gw.app.inject({
          method: 'POST',
          url,
          headers: {
            ...MCP_HEADERS,
            'mcp-protocol-version': '2025-11-25',
            'ocp-apim-subscription-key': key,
          },
          payload: { jsonrpc: '2.0', id: 1, method: 'ping' },
        });
      assert.equal((await send('/mcp/payments')).statusCode, 200);
      assert.equal((await send('/mcp')).statusCode, 200);
      const over = await send('/mcp/payments');
      assert.equal(over.statusCode, 429);
      assert.equal(over.json().error.code, -31029);
      assert.equal(over.json().error.data.scope, 'subscription');
      // The bundle's requests are counted with the MCP endpoint's on /metrics (method and status only).
      const metrics = await gw.app.inject({ method: 'GET', url: '/metrics' });
      assert.match(metrics.body, /toolgate_mcp_requests_total\{method="ping",status="200"\} 2/);
      assert.match(metrics.body, /toolgate_mcp_requests_total\{method="ping",status="429"\} 1/);
    } finally {
      await gw.close();
      await backend.close();
    }
  });

  test('storage: the limit is stored sorted without repeats; an empty list or a malformed name is refused', async () => {
    const db = openSqlite({ path: ':memory:' });
    try {
      await migrateGatewayDatabase(db);
      const store = new SubscriptionStore(db);
      const made = await store.create({
        application: 'a',
        environment: 'development',
        bundles: ['support', 'payments', 'support'],
      });
      assert.deepEqual(made.subscription.bundles, ['payments', 'support']);
      assert.deepEqual((await store.findByKey(made.primaryKey))?.subscription.bundles, [
        'payments',
        'support',
      ]);
      const open = await store.create({ application: 'b', environment: 'development' });
      assert.equal(open.subscription.bundles, null, 'not limited unless asked');
      await assert.rejects(
        store.create({ application: 'c', environment: 'development', bundles: [] }),
        /bundles: name at least one bundle/,
      );
      await assert.rejects(
        store.update(open.subscription.id, { bundles: ['Not A Name'] }),
        /bundles: "Not A Name" is not a valid bundle name/,
      );
      const lifted = await store.update(made.subscription.id, { bundles: null });
      assert.equal(lifted.bundles, null);
    } finally {
      await db.close();
    }
  });

  test('configuration: the bundle schema refuses a bundle naming a backend that does not exist', () => {
    assert.throws(
      () =>
        loadConfig({
          env: {},
          overrides: { gateway: { bundles: { team: { tools: ['backend:nope'] } } } },
        }),
      /gateway\.bundles\.team\.tools\[0\]: no backend is named nope/,
    );
  });
});
