// `toolgate admin` runs the admin plane alone (port 0 works), prints the bootstrap admin token kept with
// the demo secrets, serves its OpenAPI document; `toolgate admin-token rotate` replaces the token;
// `toolgate keys` acts through the audited service layer as cli:<user>.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqlite } from '../../src/shared/db/sqlite.js';
import { AuditLog } from '../../src/gateway/admin/audit-log.js';
import { BootstrapTokens } from '../../src/gateway/admin/bootstrap-token.js';
import { finished, runCli, spawnCli, waitForSummary } from '../helpers/process.js';
import { runMain } from '../helpers/cli-in-process.js';

function demoSecrets(dataDir: string): { adminToken?: string } {
  return JSON.parse(readFileSync(join(dataDir, 'demo-secrets.json'), 'utf8')) as {
    adminToken?: string;
  };
}

test('admin: runs alone on port 0, prints its URL and the bootstrap token, serves the OpenAPI document', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'toolgate-admin-'));
  const child = spawnCli(['admin', '--json'], {
    TOOLGATE_DATA_DIR: dataDir,
    TOOLGATE_ADMIN_PORT: '0',
  });
  let adminToken = '';
  try {
    const summary = await waitForSummary(child);
    assert.match(summary.adminUrl ?? '', /^http:\/\/127\.0\.0\.1:[1-9][0-9]*$/);
    assert.equal(summary.gatewayUrl, undefined, 'the gateway is not started');
    adminToken = summary.adminToken ?? '';
    assert.match(adminToken, /^tga_[A-Za-z0-9_-]{43}$/);
    assert.equal(demoSecrets(dataDir).adminToken, adminToken, 'kept with the demo secrets');
    assert.equal(statSync(join(dataDir, 'demo-secrets.json')).mode & 0o077, 0);

    const doc = await fetch(`${summary.adminApi}/openapi.json`);
    assert.equal(doc.status, 200);
    assert.equal(((await doc.json()) as { openapi: string }).openapi, '3.1.0');
    const me = await fetch(`${summary.adminApi}/me`, {
      headers: { authorization: `Bearer ${adminToken}` },
    });
    assert.equal(me.status, 200);
    assert.equal(((await me.json()) as { subject: string }).subject, 'bootstrap-admin');
    assert.equal((await fetch(`${summary.adminApi}/me`)).status, 401);
  } finally {
    child.kill('SIGTERM');
  }
  const exit = await finished(child, 20000);
  assert.equal(exit.code, 0, exit.stderr);
  assert.ok(
    !exit.stderr.split('\n').some((l) => l.startsWith('{"level"') && l.includes(adminToken)),
    'never logged',
  );

  // Only the hash is in the database.
  const db = openSqlite({ path: join(dataDir, 'gateway.db') });
  try {
    const rows = await db.query<{ token_hash: string }>(
      'SELECT token_hash FROM admin_bootstrap_token',
    );
    assert.equal(rows.length, 1);
    assert.ok(!JSON.stringify(rows).includes(adminToken));

    const rotated = await runMain(['admin-token', 'rotate', '--json'], {
      TOOLGATE_DATA_DIR: dataDir,
      USER: 'ops',
    });
    assert.equal(rotated.code, 0, rotated.stderr);
    const fresh = (JSON.parse(rotated.stdout) as { adminToken: string }).adminToken;
    assert.notEqual(fresh, adminToken);
    assert.equal(demoSecrets(dataDir).adminToken, fresh);
    const tokens = new BootstrapTokens(db, undefined, 0);
    assert.equal(await tokens.verify(fresh), true);
    assert.equal(await tokens.verify(adminToken), false);
    const [entry] = await new AuditLog(db).query({ action: 'admin-token.rotate' });
    assert.equal(entry?.actor.subject, 'cli:ops');
    assert.ok(!JSON.stringify(entry).includes(fresh));
  } finally {
    await db.close();
  }
});

test('admin alone verifies `toolgate token` development tokens, and refuses one that claims the bootstrap admin', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'toolgate-admin-devtokens-'));
  const env = { TOOLGATE_DATA_DIR: dataDir };
  const child = spawnCli(['admin', '--json'], env);
  try {
    const summary = await waitForSummary(child);
    const api = summary.adminApi ?? '';
    const bootstrap = summary.adminToken ?? '';
    const mint = async (sub: string) => {
      const minted = await runCli(['token', '--sub', sub, '--json'], env);
      assert.equal(minted.code, 0, minted.stderr);
      return (JSON.parse(minted.stdout) as { token: string }).token;
    };
    const call = async (method: string, path: string, token: string, body?: unknown) => {
      const res = await fetch(`${api}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };

    // No gateway runs: the development provider's key comes from the data folder.
    const me = await call('GET', '/me', await mint('alice'));
    assert.equal(me.status, 200, JSON.stringify(me.body));
    assert.equal(me.body.subject, 'alice');
    assert.equal(me.body.role, 'developer');

    // The bootstrap admin's own request, approved: a token naming its subject reaches none of it.
    const requested = await call('POST', '/access-requests', bootstrap, {
      application: 'ops-agent',
      owner: { name: 'Ops', email: 'ops@example.com' },
      tools: 'all',
      environments: ['development'],
      justification: 'for the operators',
    });
    assert.equal(requested.status, 201, JSON.stringify(requested.body));
    const id = String(requested.body.id);
    assert.equal((await call('POST', `/access-requests/${id}/approve`, bootstrap, {})).status, 200);
    const impostor = await mint('bootstrap-admin');
    const listed = await call('GET', '/access-requests', impostor);
    assert.equal(listed.status, 401);
    assert.match(String(listed.body.detail), /"bootstrap-admin" is reserved/);
    const keys = await call('POST', `/access-requests/${id}/keys`, impostor);
    assert.equal(keys.status, 401);
    assert.equal(keys.body.subscriptions, undefined);
    assert.equal((await call('POST', `/access-requests/${id}/keys`, bootstrap)).status, 200);
  } finally {
    child.kill('SIGTERM');
  }
  const exit = await finished(child, 20000);
  assert.equal(exit.code, 0, exit.stderr);
});

test('keys: CLI changes go through the service layer and are audited as cli:<user>', async () => {
  const env = {
    TOOLGATE_DATA_DIR: mkdtempSync(join(tmpdir(), 'toolgate-keys-audit-')),
    USER: 'tester',
  };
  const created = await runMain(
    ['keys', 'create', '--app', 'audited', '--env', 'staging', '--json'],
    env,
  );
  assert.equal(created.code, 0, created.stderr);
  const { subscriptionId, primaryKey } = JSON.parse(created.stdout) as {
    subscriptionId: string;
    primaryKey: string;
  };
  assert.equal((await runMain(['keys', 'suspend', '--id', subscriptionId], env)).code, 0);
  const listed = await runMain(['keys', 'list', '--json'], env);
  const [sub] = (
    JSON.parse(listed.stdout) as {
      subscriptions: { keyAges: Record<string, { rotationDue: string; ageDays: number }> }[];
    }
  ).subscriptions;
  assert.deepEqual(
    sub?.keyAges.primary && [sub.keyAges.primary.rotationDue, sub.keyAges.primary.ageDays],
    ['ok', 0],
  );
  assert.equal(listed.stderr, '', 'no warning for young keys');

  const db = openSqlite({ path: join(env.TOOLGATE_DATA_DIR, 'gateway.db') });
  try {
    // An old key earns a warning from `keys list`.
    await db.execute(
      "UPDATE subscription_keys SET created_at = '2020-01-01T00:00:00.000Z' WHERE slot = 'primary'",
    );
    const audit = new AuditLog(db);
    const entries = await audit.query({ target: `subscription:${subscriptionId}` });
    assert.deepEqual(entries.map((e) => e.action).reverse(), [
      'subscription.create',
      'subscription.suspend',
    ]);
    assert.ok(entries.every((e) => e.actor.subject === 'cli:tester' && e.actor.via === 'cli'));
    assert.ok(!JSON.stringify(entries).includes(primaryKey));
    assert.equal((await audit.verify()).ok, true);
  } finally {
    await db.close();
  }
  const warned = await runMain(['keys', 'list'], env);
  assert.equal(warned.code, 0);
  assert.match(
    warned.stderr,
    /^warning: sub_\S+ primary key tgk_…\S{4} is \d+ days old, past the 90-day rotation policy/m,
  );
});

test('admin and admin-token have --help', async () => {
  const admin = await runMain(['admin', '--help'], {});
  assert.equal(admin.code, 0);
  assert.match(admin.stdout, /^Usage: toolgate admin /);
  const token = await runMain(['admin-token', '--help'], {});
  assert.equal(token.code, 0);
  assert.match(token.stdout, /^Usage: toolgate admin-token rotate/);
  assert.equal((await runMain(['admin-token', 'frobnicate'], {})).code, 2);
});
