// Admission of MCP requests: subscription key, user JWT per mode, tool security class, quotas.
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
import { parseRateLimitConfig } from '../../../src/gateway/ratelimit/config.js';
import { Admission, type Caller } from '../../../src/gateway/admission/admission.js';

const ISSUER = 'https://idp.example.test';
const AUDIENCE = 'http://127.0.0.1:8080/mcp';
const METADATA = 'http://127.0.0.1:8080/.well-known/oauth-protected-resource/mcp';

describe('admission', () => {
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
    verifier = createJwtVerifier({
      issuer: ISSUER,
      audience: AUDIENCE,
      staticKeys: [{ jwk: publicJwk as Record<string, unknown> }],
    });
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
    return new Admission({
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
    query?: Record<string, string>,
  ) => ({
    socketAddress,
    headers,
    ...(query ? { query } : {}),
  });

  async function caller(admission: Admission, headers: Record<string, string>): Promise<Caller> {
    const result = await admission.identify(call(headers));
    assert.ok(result.ok, JSON.stringify(!result.ok && result.refusal));
    return result.value;
  }

  test('gateway spec §Authentication 1: a missing subscription key → 401 with a JSON-RPC error, no Bearer challenge', async () => {
    const result = await build().identify(call({}));
    assert.ok(!result.ok);
    assert.equal(result.refusal.code, 'UNAUTHENTICATED');
    assert.match(result.refusal.message, /Missing subscription key/);
    assert.equal(
      result.refusal.headers['WWW-Authenticate'],
      'ApiKey header="Ocp-Apim-Subscription-Key"',
    );
  });

  test('a suspended subscription → 403 (-32003)', async () => {
    const issued = await store.create({ application: 'paused', environment: 'development' });
    await store.setStatus(issued.subscription.id, 'suspended');
    const result = await build().identify(call({ 'ocp-apim-subscription-key': issued.primaryKey }));
    assert.ok(!result.ok);
    assert.equal(result.refusal.code, 'FORBIDDEN');
  });

  test('gateway spec §Authentication 5: no Authorization → anonymous with user id "anonymous"', async () => {
    const c = await caller(build(), { 'ocp-apim-subscription-key': key });
    assert.deepEqual(c.identity, { kind: 'anonymous', userId: 'anonymous' });
    assert.equal(c.clientIp, '203.0.113.7');
  });

  test('gateway spec §Authentication 4: a valid JWT identifies the user by its subject, with its claims', async () => {
    const c = await caller(build(), {
      'ocp-apim-subscription-key': key,
      authorization: `Bearer ${await token({ email: 'a@x.test' })}`,
    });
    assert.equal(c.identity.kind, 'user');
    assert.equal(c.identity.userId, 'alice');
    assert.equal(c.identity.kind === 'user' && c.identity.user.claims.email, 'a@x.test');
  });

  test('gateway spec §Errors: a present but invalid JWT → 401 with error="invalid_token" and resource_metadata (RFC 9728 §5.1)', async () => {
    const forged = `${(await token()).slice(0, -4)}AAAA`;
    const result = await build().identify(
      call({ 'ocp-apim-subscription-key': key, authorization: `Bearer ${forged}` }),
    );
    assert.ok(!result.ok);
    assert.equal(result.refusal.code, 'UNAUTHENTICATED');
    assert.match(result.refusal.headers['WWW-Authenticate'] ?? '', /^Bearer error="invalid_token"/);
    assert.ok(
      (result.refusal.headers['WWW-Authenticate'] ?? '').includes(
        `resource_metadata="${METADATA}"`,
      ),
    );
  });

  test('gateway spec §Authentication 8: mode required refuses a call without a token; mode anonymous ignores the header', async () => {
    const required = await build({ mode: 'required' }).identify(
      call({ 'ocp-apim-subscription-key': key }),
    );
    assert.ok(!required.ok);
    assert.equal(required.refusal.code, 'UNAUTHENTICATED');
    const anon = await caller(build({ mode: 'anonymous' }), {
      'ocp-apim-subscription-key': key,
      authorization: 'Bearer garbage',
    });
    assert.equal(anon.identity.kind, 'anonymous');
  });

  test('gateway spec §Authentication 6: a user-scoped tool without a user → 401 Bearer challenge without error attribute', async () => {
    const admission = build();
    const anon = await caller(admission, { 'ocp-apim-subscription-key': key });
    const refusal = admission.requireUser(anon.identity.kind, 'getPayment');
    assert.equal(refusal?.code, 'UNAUTHENTICATED');
    assert.equal(refusal?.headers['WWW-Authenticate'], `Bearer resource_metadata="${METADATA}"`);
    const user = await caller(admission, {
      'ocp-apim-subscription-key': key,
      authorization: `Bearer ${await token()}`,
    });
    assert.equal(admission.requireUser(user.identity.kind, 'getPayment'), null);
  });

  test('a subscription may use only its listed tools', async () => {
    const admission = build();
    const c = await caller(admission, { 'ocp-apim-subscription-key': key });
    assert.equal(admission.mayUse(c, 'getPayment'), true);
    assert.equal(admission.mayUse(c, 'cancelPayment'), false);
  });

  test('a subscription may list products: "product:NAME" grants every tool of that product', async () => {
    const admission = build();
    const issued = await store.create({
      application: 'product-user',
      environment: 'development',
      tools: ['product:readonly', 'fetchPaymentFees', 'product:unknown'],
    });
    const c = await caller(admission, { 'ocp-apim-subscription-key': issued.primaryKey });
    assert.deepEqual([...(admission.allowedTools(c) as Set<string>)].sort(), [
      'fetchPaymentFees',
      'getPayment',
      'listPayments',
    ]);
    assert.equal(admission.mayUse(c, 'listPayments'), true);
    assert.equal(admission.mayUse(c, 'cancelPayment'), false);
  });

  test('the subscription-key query parameter counts only when enabled', async () => {
    const off = await build().identify(call({}, '203.0.113.8', { 'subscription-key': key }));
    assert.equal(off.ok, false);
    const on = await build({ allowQueryKey: true }).identify(
      call({}, '203.0.113.8', { 'subscription-key': key }),
    );
    assert.equal(on.ok, true);
  });

  test('gateway spec §Limits: anonymous callers get 50 per 60 s per IP; the 51st is 429 with Retry-After and scope ip', async () => {
    const admission = build();
    const c = await caller(admission, { 'ocp-apim-subscription-key': key });
    for (let i = 0; i < 50; i++)
      assert.equal((await admission.limit(c)).ok, true, `request ${i + 1}`);
    const over = await admission.limit(c);
    assert.ok(!over.ok);
    assert.equal(over.refusal.code, 'RATE_LIMITED');
    assert.equal((over.refusal.data as { scope: string }).scope, 'ip');
    assert.ok(Number(over.refusal.headers['Retry-After']) >= 1);
    // Another address is unaffected.
    const other = await admission.identify(
      call({ 'ocp-apim-subscription-key': key }, '203.0.113.99'),
    );
    assert.ok(other.ok && (await admission.limit(other.value)).ok);
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
    const fromB = (await admission.identify(call(headers, '198.51.100.2'))) as {
      ok: true;
      value: Caller;
    };
    assert.ok((await admission.limit(fromA)).ok);
    assert.ok((await admission.limit(fromB.value)).ok);
    assert.ok((await admission.limit(fromA)).ok);
    const over = await admission.limit(fromB.value);
    assert.ok(!over.ok);
    assert.equal((over.refusal.data as { scope: string }).scope, 'user');
  });

  test("a subscription's own per-minute limit applies across its callers", async () => {
    const issued = await store.create({
      application: 'small',
      environment: 'development',
      rateLimitPerMinute: 2,
    });
    const admission = build();
    const c = await caller(admission, { 'ocp-apim-subscription-key': issued.primaryKey });
    assert.ok((await admission.limit(c)).ok);
    const second = await admission.limit(c);
    assert.ok(second.ok);
    assert.match(second.value['RateLimit-Policy'] ?? '', /"subscription";q=2;w=60/);
    const third = await admission.limit(c);
    assert.ok(!third.ok);
    assert.equal((third.refusal.data as { scope: string }).scope, 'subscription');
  });
});
