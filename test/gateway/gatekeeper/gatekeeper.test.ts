// The configured gatekeeper: subscription key, user JWT per mode, quotas per message, tool security class.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { SignJWT, exportJWK, generateKeyPair, type CryptoKey, type JWK } from 'jose';
import { openSqlite } from '../../../src/shared/db/sqlite.js';
import { runMigrations } from '../../../src/shared/db/migrations.js';
import type { Database } from '../../../src/shared/db/types.js';
import { subscriptionMigrations } from '../../../src/gateway/auth/subscriptions/migrations.js';
import { SubscriptionStore } from '../../../src/gateway/auth/subscriptions/store.js';
import { SubscriptionKeyAuthenticator } from '../../../src/gateway/auth/subscriptions/authenticate.js';
import { createJwtVerifier, type JwtVerifier } from '../../../src/gateway/auth/jwt/verify.js';
import { createRateLimiter } from '../../../src/gateway/ratelimit/limiter.js';
import { parseRateLimitConfig } from '../../../src/config/gateway-ratelimit.js';
import { createGatekeeper, type Gatekeeper } from '../../../src/gateway/gatekeeper/gatekeeper.js';
import { mayUseTool, type Caller } from '../../../src/gateway/caller.js';
import { GatewayError } from '../../../src/gateway/errors.js';
import type { Tool } from '../../../src/gateway/catalogue/types.js';
import { resolveJwtConfig } from '../../../src/config/gateway-jwt.js';

const ISSUER = 'https://idp.example.test';
const AUDIENCE = 'http://127.0.0.1:8080/mcp';
const METADATA = 'http://127.0.0.1:8080/.well-known/oauth-protected-resource/mcp';

describe('gatekeeper', () => {
  let db: Database;
  let store: SubscriptionStore;
  let privateKey: CryptoKey;
  let publicJwk: JWK;
  let verifier: JwtVerifier;
  let key: string;

  before(async () => {
    db = openSqlite({ path: ':memory:' });
    await runMigrations(db, 'subscriptions', subscriptionMigrations);
    store = new SubscriptionStore(db);
    const pair = await generateKeyPair('ES256', { extractable: true });
    privateKey = pair.privateKey;
    publicJwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'ES256' };
    verifier = createJwtVerifier(
      resolveJwtConfig({
        issuer: ISSUER,
        audience: AUDIENCE,
        staticKeys: [{ jwk: publicJwk as Record<string, unknown> }],
      }),
    );
    key = (
      await store.create({
        application: 'agent',
        environment: 'development',
        tools: ['getPayment', 'fetchPaymentFees'],
      })
    ).primaryKey;
  });
  after(async () => {
    verifier.close();
    await db.close();
  });

  function build(
    options: {
      mode?: 'conditional' | 'required' | 'anonymous';
      allowQueryKey?: boolean;
      rateLimit?: unknown;
    } = {},
  ) {
    const keys = new SubscriptionKeyAuthenticator(store, {
      environment: 'development',
      cacheTtlMs: 0,
      failedAttempts: { limit: 100, windowSeconds: 60 },
    });
    const limiter = createRateLimiter(parseRateLimitConfig(options.rateLimit ?? {}));
    return createGatekeeper({
      products: { readonly: ['getPayment', 'listPayments'] },
      keys,
      jwt: { mode: options.mode ?? 'conditional', verifier },
      limiter,
      allowQueryKey: options.allowQueryKey ?? false,
      resourceMetadataUrl: METADATA,
    });
  }

  function token(claims: Record<string, unknown> = {}, sub = 'alice') {
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setSubject(sub)
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(privateKey);
  }

  const call = (
    headers: Record<string, string>,
    socketAddress = '203.0.113.7',
    query: Record<string, string> = {},
  ) => ({
    requestId: 'r1',
    socketAddress,
    headers,
    authorization: headers.authorization === undefined ? [] : [headers.authorization],
    query,
  });

  /** The GatewayError a promise (or a call) fails with. */
  async function refusal(attempt: Promise<unknown> | (() => unknown)): Promise<GatewayError> {
    try {
      await (typeof attempt === 'function' ? attempt() : attempt);
    } catch (error) {
      assert.ok(error instanceof GatewayError, String(error));
      return error;
    }
    assert.fail('expected a refusal');
  }

  const caller = (admission: Gatekeeper, headers: Record<string, string>): Promise<Caller> =>
    admission.identify(call(headers));

  const admitted = async (admission: Gatekeeper, c: Caller): Promise<boolean> => {
    try {
      await admission.admit(c, undefined);
      return true;
    } catch (error) {
      if (error instanceof GatewayError) return false;
      throw error;
    }
  };

  const scope = (error: GatewayError) => (error.data as { scope: string }).scope;

  test('gateway spec §Authentication 1: a missing subscription key → 401 with a JSON-RPC error, no Bearer challenge', async () => {
    const error = await refusal(build().identify(call({})));
    assert.equal(error.code, 'UNAUTHENTICATED');
    assert.match(error.message, /Missing subscription key/);
    assert.equal(error.headers?.['WWW-Authenticate'], 'ApiKey header="Ocp-Apim-Subscription-Key"');
  });

  test('a suspended subscription → 403 (-31002)', async () => {
    const issued = await store.create({ application: 'paused', environment: 'development' });
    await store.setStatus(issued.subscription.id, 'suspended');
    const error = await refusal(
      build().identify(call({ 'ocp-apim-subscription-key': issued.primaryKey })),
    );
    assert.equal(error.code, 'FORBIDDEN');
    assert.equal(error.rpcCode, -31002);
  });

  test('gateway spec §Authentication 5: no Authorization → an anonymous caller (no user)', async () => {
    const c = await caller(build(), { 'ocp-apim-subscription-key': key });
    assert.equal(c.user, null);
    assert.equal(c.clientIp, '203.0.113.7');
    assert.equal(c.subscription.application, 'agent');
  });

  test('gateway spec §Authentication 4: a valid JWT identifies the user by its subject, with its claims', async () => {
    const c = await caller(build(), {
      'ocp-apim-subscription-key': key,
      authorization: `Bearer ${await token({ email: 'a@x.test' })}`,
    });
    assert.equal(c.user?.subject, 'alice');
    assert.equal(c.user?.claims.email, 'a@x.test');
  });

  test('gateway spec §Errors: a present but invalid JWT → 401 with error="invalid_token" and resource_metadata (RFC 9728 §5.1)', async () => {
    const forged = `${(await token()).slice(0, -4)}AAAA`;
    const error = await refusal(
      build().identify(
        call({ 'ocp-apim-subscription-key': key, authorization: `Bearer ${forged}` }),
      ),
    );
    assert.equal(error.code, 'UNAUTHENTICATED');
    const challenge = error.headers?.['WWW-Authenticate'] ?? '';
    assert.match(challenge, /^Bearer error="invalid_token"/);
    assert.ok(challenge.includes(`resource_metadata="${METADATA}"`));
  });

  test('gateway spec §Authentication 8: mode required refuses a call without a token; mode anonymous ignores the header', async () => {
    const error = await refusal(
      build({ mode: 'required' }).identify(call({ 'ocp-apim-subscription-key': key })),
    );
    assert.equal(error.code, 'UNAUTHENTICATED');
    const anon = await caller(build({ mode: 'anonymous' }), {
      'ocp-apim-subscription-key': key,
      authorization: 'Bearer garbage',
    });
    assert.equal(anon.user, null);
  });

  test('gateway spec §Authentication 6: a user-scoped tool without a user → 401 Bearer challenge without error attribute', async () => {
    const admission = build();
    const userScoped = { name: 'getPayment', securityClass: 'user-scoped' } as Tool;
    const publicTool = { name: 'fetchBankDetails', securityClass: 'public' } as Tool;
    const anon = await caller(admission, { 'ocp-apim-subscription-key': key });
    const error = await refusal(() => admission.authorize(anon, userScoped));
    assert.equal(error.code, 'UNAUTHENTICATED');
    assert.equal(error.headers?.['WWW-Authenticate'], `Bearer resource_metadata="${METADATA}"`);
    assert.deepEqual(error.data, { reason: 'TOKEN_MISSING', tool: 'getPayment' });
    admission.authorize(anon, publicTool);
    const user = await caller(admission, {
      'ocp-apim-subscription-key': key,
      authorization: `Bearer ${await token()}`,
    });
    admission.authorize(user, userScoped);
  });

  test('a subscription may use only its listed tools', async () => {
    const c = await caller(build(), { 'ocp-apim-subscription-key': key });
    assert.equal(mayUseTool(c, 'getPayment'), true);
    assert.equal(mayUseTool(c, 'cancelPayment'), false);
  });

  test('a subscription may list products: "product:NAME" grants every tool of that product', async () => {
    const issued = await store.create({
      application: 'product-user',
      environment: 'development',
      tools: ['product:readonly', 'fetchPaymentFees', 'product:unknown'],
    });
    const c = await caller(build(), { 'ocp-apim-subscription-key': issued.primaryKey });
    assert.deepEqual([...(c.subscription.tools as Set<string>)].sort(), [
      'fetchPaymentFees',
      'getPayment',
      'listPayments',
    ]);
    assert.equal(mayUseTool(c, 'listPayments'), true);
    assert.equal(mayUseTool(c, 'cancelPayment'), false);
  });

  test('the subscription-key query parameter counts only when enabled', async () => {
    await refusal(build().identify(call({}, '203.0.113.8', { 'subscription-key': key })));
    const on = await build({ allowQueryKey: true }).identify(
      call({}, '203.0.113.8', { 'subscription-key': key }),
    );
    assert.equal(on.subscription.application, 'agent');
  });

  test('gateway spec §Limits: anonymous callers get 50 per 60 s per IP; the 51st is 429 with Retry-After and scope ip', async () => {
    const admission = build();
    const c = await caller(admission, { 'ocp-apim-subscription-key': key });
    for (let i = 0; i < 50; i++)
      assert.equal(await admitted(admission, c), true, `request ${i + 1}`);
    const over = await refusal(admission.admit(c, undefined));
    assert.equal(over.code, 'RATE_LIMITED');
    assert.equal(scope(over), 'ip');
    assert.ok(Number(over.headers?.['Retry-After']) >= 1);
    // Another address is unaffected.
    const other = await admission.identify(
      call({ 'ocp-apim-subscription-key': key }, '203.0.113.99'),
    );
    assert.equal(await admitted(admission, other), true);
  });

  test('gateway spec §Limits: authenticated callers are counted per user, not per IP', async () => {
    const admission = build({
      rateLimit: { user: { limit: 3, windowSeconds: 60 }, subscriptionDefault: { limit: 1000 } },
    });
    const headers = {
      'ocp-apim-subscription-key': key,
      authorization: `Bearer ${await token({}, 'bob')}`,
    };
    const fromA = await caller(admission, headers);
    const fromB = await admission.identify(call(headers, '198.51.100.2'));
    assert.ok(await admitted(admission, fromA));
    assert.ok(await admitted(admission, fromB));
    assert.ok(await admitted(admission, fromA));
    assert.equal(scope(await refusal(admission.admit(fromB, undefined))), 'user');
  });

  test("a subscription's own per-minute limit applies across its callers", async () => {
    const issued = await store.create({
      application: 'small',
      environment: 'development',
      rateLimitPerMinute: 2,
    });
    const admission = build();
    const c = await caller(admission, { 'ocp-apim-subscription-key': issued.primaryKey });
    await admission.admit(c, undefined);
    const second = await admission.admit(c, undefined);
    assert.match(second['RateLimit-Policy'] ?? '', /"subscription";q=2;w=60/);
    assert.equal(scope(await refusal(admission.admit(c, undefined))), 'subscription');
  });
});
