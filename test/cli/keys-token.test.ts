// `toolgate keys …` and `toolgate token` through the real binary, against a temporary data dir.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createJwtVerifier } from '../../src/gateway/auth/jwt/verify.js';
import { DEV_IDP_KEY_FILE, createDevIdp } from '../../src/gateway/auth/dev-idp/idp.js';
import { runCli } from '../helpers/process.js';
import { resolveJwtConfig } from '../../src/config/gateway-jwt.js';

function json<T>(text: string): T {
  return JSON.parse(text) as T;
}

interface Described {
  subscriptionId: string;
  application: string;
  environment: string;
  status: string;
  tools: string[] | null;
  keys: Record<string, string>;
  primaryKey?: string;
  secondaryKey?: string;
  key?: string;
}

test('keys: create prints the keys once; list, rotate, suspend, resume, revoke with --json', async () => {
  const env = { TOOLGATE_DATA_DIR: mkdtempSync(join(tmpdir(), 'toolgate-keys-')) };
  const created = await runCli(
    [
      'keys',
      'create',
      '--app',
      'demo-agent',
      '--env',
      'staging',
      '--tools',
      'getPayment,listPayments',
      '--json',
    ],
    env,
  );
  assert.equal(created.code, 0, created.stderr);
  const sub = json<Described>(created.stdout);
  assert.match(sub.primaryKey ?? '', /^tgk_[0-9A-Za-z]{30}$/);
  assert.match(sub.secondaryKey ?? '', /^tgk_[0-9A-Za-z]{30}$/);
  assert.equal(sub.environment, 'staging');
  assert.deepEqual(sub.tools, ['getPayment', 'listPayments']);

  const listed = await runCli(['keys', 'list', '--json'], env);
  assert.equal(listed.code, 0);
  const { subscriptions: all, store } = json<{
    subscriptions: Described[];
    store: Record<string, string>;
  }>(listed.stdout);
  // --json says which store the command used.
  assert.deepEqual(store, { kind: 'sqlite', path: join(env.TOOLGATE_DATA_DIR, 'gateway.db') });
  assert.equal(all.length, 1);
  assert.equal(all[0]?.keys.primary, `tgk_…${sub.primaryKey?.slice(-4)}`);
  assert.equal(listed.stdout.includes(sub.primaryKey ?? '?'), false, 'list never shows a key');

  const rotated = json<Described>(
    (
      await runCli(
        ['keys', 'rotate', '--id', sub.subscriptionId, '--slot', 'secondary', '--json'],
        env,
      )
    ).stdout,
  );
  assert.notEqual(rotated.key, sub.secondaryKey);
  assert.equal(rotated.keys.secondary, `tgk_…${rotated.key?.slice(-4)}`);

  for (const [action, status] of [
    ['suspend', 'suspended'],
    ['resume', 'active'],
    ['revoke', 'revoked'],
  ] as const) {
    const result = await runCli(['keys', action, '--id', sub.subscriptionId, '--json'], env);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(json<Described>(result.stdout).status, status);
  }
  const again = await runCli(['keys', 'resume', '--id', sub.subscriptionId], env);
  assert.equal(again.code, 1);
  assert.match(
    again.stderr,
    /^toolgate keys: subscription sub_\S+ is revoked and cannot be resumed\n$/,
  );
});

test('keys: usage errors name the flag', async () => {
  const env = { TOOLGATE_DATA_DIR: mkdtempSync(join(tmpdir(), 'toolgate-keys-')) };
  const noEnv = await runCli(['keys', 'create', '--app', 'x'], env);
  assert.equal(noEnv.code, 2);
  assert.equal(noEnv.stderr, 'toolgate keys: --env is required\n');
  const badEnv = await runCli(['keys', 'create', '--app', 'x', '--env', 'prod'], env);
  assert.equal(badEnv.code, 2);
  assert.match(
    badEnv.stderr,
    /--env must be one of development, staging, production \(got "prod"\)/,
  );
  const help = await runCli(['keys', '--help'], env);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /^Usage: toolgate keys <action>/);
});

test('token: mints a dev-IdP token that verifies against the dev IdP key, with claims and ttl', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'toolgate-token-'));
  const result = await runCli(
    ['token', '--sub', 'alice', '--ttl', '600', '--claim', 'email=alice@example.com', '--json'],
    {
      TOOLGATE_DATA_DIR: dataDir,
    },
  );
  assert.equal(result.code, 0, result.stderr);
  const out = json<{ token: string; issuer: string; audience: string }>(result.stdout);
  assert.equal(out.issuer, 'http://127.0.0.1:8080/dev-idp');
  assert.equal(out.audience, 'http://127.0.0.1:8080/mcp');
  assert.ok(
    existsSync(join(dataDir, DEV_IDP_KEY_FILE)),
    'the signing key is kept under the data dir',
  );
  const [publicJwk] = (await createDevIdp({ dataDir })).jwks().keys;
  assert.ok(publicJwk);
  const verifier = createJwtVerifier(
    resolveJwtConfig({
      issuer: out.issuer,
      audience: out.audience,
      staticKeys: [{ jwk: publicJwk as Record<string, unknown> }],
    }),
  );
  const user = await verifier.verify(out.token);
  verifier.close();
  assert.equal(user.subject, 'alice');
  assert.equal(user.claims.email, 'alice@example.com');
  assert.ok(user.expiresAt - Date.now() / 1000 <= 600 && user.expiresAt - Date.now() / 1000 > 590);
});

test('token: refuses without --sub, and where the dev IdP is disabled', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'toolgate-token-'));
  const noSub = await runCli(['token'], { TOOLGATE_DATA_DIR: dataDir });
  assert.equal(noSub.code, 2);
  assert.match(noSub.stderr, /--sub SUBJECT is required/);
  const prod = await runCli(['token', '--sub', 'bob'], {
    TOOLGATE_DATA_DIR: dataDir,
    TOOLGATE_ENVIRONMENT: 'production',
  });
  assert.equal(prod.code, 2);
  assert.match(prod.stderr, /development identity provider is disabled/);
});

test('keys lockout: --exempt / --enforce set the failed-attempt lockout exemption; exactly one is required', async () => {
  const env = { TOOLGATE_DATA_DIR: mkdtempSync(join(tmpdir(), 'toolgate-keys-')) };
  const created = await runCli(
    ['keys', 'create', '--app', 'nat-agent', '--env', 'development', '--lockout-exempt', '--json'],
    env,
  );
  assert.equal(created.code, 0, created.stderr);
  const sub = json<Described & { lockoutExempt: boolean }>(created.stdout);
  assert.equal(sub.lockoutExempt, true);
  const enforced = await runCli(
    ['keys', 'lockout', '--id', sub.subscriptionId, '--enforce', '--json'],
    env,
  );
  assert.equal(enforced.code, 0, enforced.stderr);
  assert.equal(json<{ lockoutExempt: boolean }>(enforced.stdout).lockoutExempt, false);
  const exempted = await runCli(['keys', 'lockout', '--id', sub.subscriptionId, '--exempt'], env);
  assert.equal(exempted.code, 0, exempted.stderr);
  assert.match(exempted.stdout, /lockout-exempt/);
  const both = await runCli(['keys', 'lockout', '--id', sub.subscriptionId], env);
  assert.equal(both.code, 2);
  assert.match(both.stderr, /exactly one of --exempt or --enforce/);
});
