// `toolgate client-config` (DESIGN.md, CLI contract) through the real binary: the block it prints is
// accepted by the running gateway, and keys the gateway would refuse are refused here first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createJwtVerifier } from '../../src/gateway/auth/jwt/verify.js';
import { createDevIdp } from '../../src/gateway/auth/dev-idp/idp.js';
import { decodeJwt } from 'jose';
import { runCli } from '../helpers/process.js';
import { resolveJwtConfig } from '../../src/config/gateway-jwt.js';

interface Block {
  mcpServers: Record<string, { type: string; url: string; headers: Record<string, string> }>;
}

async function createKey(env: Record<string, string>, environment = 'development') {
  const created = await runCli(
    ['keys', 'create', '--app', 'agent', '--env', environment, '--json'],
    env,
  );
  assert.equal(created.code, 0, created.stderr);
  return JSON.parse(created.stdout) as { primaryKey: string; subscriptionId: string };
}

test('client-config: --key and --sub give a block with the MCP URL, the key and a valid token', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'toolgate-client-config-'));
  const env = { TOOLGATE_DATA_DIR: dataDir };
  const { primaryKey } = await createKey(env);
  const out = await runCli(
    ['client-config', '--key', primaryKey, '--sub', 'carol', '--name', 'payments'],
    env,
  );
  assert.equal(out.code, 0, out.stderr);
  const block = JSON.parse(out.stdout) as Block;
  const server = block.mcpServers['payments'];
  // Clients (MCP Inspector --config, Claude Code, VS Code) read an entry without a type as stdio.
  assert.equal(server?.type, 'http');
  assert.deepEqual(Object.keys(server ?? {}), ['type', 'url', 'headers']);
  assert.equal(server?.url, 'http://127.0.0.1:8080/mcp');
  assert.equal(server?.headers['Ocp-Apim-Subscription-Key'], primaryKey);
  const bearer = server?.headers['Authorization'] ?? '';
  assert.match(bearer, /^Bearer [\w-]+\.[\w-]+\.[\w-]+$/);

  // The token verifies against the development identity provider's key, for the gateway's audience.
  const idp = await createDevIdp({ dataDir });
  const verifier = createJwtVerifier(
    resolveJwtConfig({
      issuer: 'http://127.0.0.1:8080/dev-idp',
      audience: 'http://127.0.0.1:8080/mcp',
      staticKeys: [{ jwk: idp.jwks().keys[0] as Record<string, unknown> }],
    }),
  );
  const user = await verifier.verify(bearer.slice('Bearer '.length));
  verifier.close();
  assert.equal(user.subject, 'carol');
});

test('client-config and token: a configured gateway.mcp.path is the URL and the token audience', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'toolgate-client-config-'));
  const configFile = join(dataDir, 'toolgate.json');
  writeFileSync(configFile, JSON.stringify({ gateway: { mcp: { path: '/agents/mcp' } } }));
  const env = { TOOLGATE_DATA_DIR: dataDir, TOOLGATE_CONFIG: configFile };
  const { primaryKey } = await createKey(env);
  const out = await runCli(['client-config', '--key', primaryKey, '--sub', 'carol'], env);
  assert.equal(out.code, 0, out.stderr);
  const server = (JSON.parse(out.stdout) as Block).mcpServers['toolgate'];
  assert.equal(server?.url, 'http://127.0.0.1:8080/agents/mcp');
  const token = (server?.headers['Authorization'] ?? '').slice('Bearer '.length);
  assert.equal(decodeJwt(token).aud, 'http://127.0.0.1:8080/agents/mcp');
  const minted = await runCli(['token', '--sub', 'dave', '--json'], env);
  assert.equal(minted.code, 0, minted.stderr);
  assert.equal(
    (JSON.parse(minted.stdout) as { audience: string }).audience,
    'http://127.0.0.1:8080/agents/mcp',
  );
});

test('client-config: without --key it uses the demo key; without --sub/--token no Authorization', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'toolgate-client-config-'));
  const env = { TOOLGATE_DATA_DIR: dataDir };
  const none = await runCli(['client-config'], env);
  assert.equal(none.code, 2);
  assert.match(none.stderr, /no --key given and no demo key/);

  const { primaryKey } = await createKey(env);
  writeFileSync(
    join(dataDir, 'demo-secrets.json'),
    JSON.stringify({ subscriptionKey: primaryKey }),
  );
  const out = await runCli(['client-config', '--json'], env);
  assert.equal(out.code, 0, out.stderr);
  const server = (JSON.parse(out.stdout) as Block).mcpServers['toolgate'];
  assert.deepEqual(server?.headers, { 'Ocp-Apim-Subscription-Key': primaryKey });
});

test('client-config: unknown, suspended and other-environment keys are refused, masked', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'toolgate-client-config-'));
  const env = { TOOLGATE_DATA_DIR: dataDir };
  // No gateway store in the data folder: nothing to check a key against, and nothing is created.
  const noStore = await runCli(
    ['client-config', '--key', 'tgk_unknownunknownunknown0000wxyz'],
    env,
  );
  assert.equal(noStore.code, 1);
  assert.match(noStore.stderr, /^toolgate client-config: no store at \S+gateway\.db: /);
  await createKey(env, 'staging');
  const unknown = await runCli(
    ['client-config', '--key', 'tgk_unknownunknownunknown0000wxyz'],
    env,
  );
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /the key tgk_…wxyz is not known to this gateway/);
  assert.ok(!unknown.stderr.includes('tgk_unknown'), 'the key is masked');

  const staging = await createKey(env, 'staging');
  const other = await runCli(['client-config', '--key', staging.primaryKey], env);
  assert.equal(other.code, 2);
  assert.match(other.stderr, /is for staging, this gateway serves development/);

  const dev = await createKey(env);
  const suspend = await runCli(['keys', 'suspend', '--id', dev.subscriptionId], env);
  assert.equal(suspend.code, 0, suspend.stderr);
  const suspended = await runCli(['client-config', '--key', dev.primaryKey], env);
  assert.equal(suspended.code, 2);
  assert.match(suspended.stderr, /belongs to a suspended subscription/);

  const both = await runCli(
    ['client-config', '--key', dev.primaryKey, '--sub', 'a', '--token', 'a.b.c'],
    env,
  );
  assert.equal(both.code, 2);
  assert.match(both.stderr, /either --sub or --token/);
});
