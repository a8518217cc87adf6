// Issue 27, trap 1 ("The pasted configuration dies after an hour"): the block `toolgate start` prints
// carries a development token that the gateway's verifier still accepts when the clock has passed an hour
// (and a day), that the next start prints again unchanged, and that is renewed only in its last week.
// Time is driven, not waited for.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/load.js';
import { resolveJwtConfig } from '../../src/config/gateway-jwt.js';
import { demoAccess, DEMO_TOKEN_TTL_SECONDS, mcpServersBlock } from '../../src/cli/demo.js';
import { createDevIdp } from '../../src/gateway/auth/dev-idp/idp.js';
import { createJwtVerifier } from '../../src/gateway/auth/jwt/verify.js';
import { resolveIdentitySettings } from '../../src/gateway/auth/settings.js';
import { openGatewayDatabase } from '../../src/gateway/database.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

async function demoConfig() {
  const dataDir = join(mkdtempSync(join(tmpdir(), 'tg-demo-token-')), 'data');
  mkdirSync(dataDir, { recursive: true });
  const config = loadConfig({ env: {}, overrides: { dataDir } });
  // `toolgate start` has opened (and migrated) the gateway store before it prints the demo access.
  await (await openGatewayDatabase(config.gateway.database, config.dataDir)).close();
  return config;
}

/** The gateway's own verifier for the configured issuer and audience, at a driven time. */
async function verifierAt(config: ReturnType<typeof loadConfig>, at: () => number) {
  const settings = resolveIdentitySettings(config);
  assert.ok(settings.jwt !== null);
  const idp = await createDevIdp({ dataDir: config.dataDir });
  const jwk = idp.jwks().keys[0];
  assert.ok(jwk !== undefined);
  return createJwtVerifier(
    resolveJwtConfig({
      issuer: settings.jwt.issuer,
      audience: settings.jwt.audience,
      staticKeys: [{ jwk }],
    }),
    { clock: at },
  );
}

test('issue 27 trap 1: the printed token still verifies after an hour and a day; it lives 30 days', async () => {
  const config = await demoConfig();
  const start = Date.now();
  const access = await demoAccess(config, () => start);
  assert.ok(access.sampleToken !== null && access.sampleTokenExpiresAt !== null);
  assert.equal(
    Date.parse(access.sampleTokenExpiresAt),
    Math.floor(start / 1000) * 1000 + DEMO_TOKEN_TTL_SECONDS * 1000,
  );
  const block = mcpServersBlock(access) as {
    mcpServers: { toolgate: { headers: Record<string, string> } };
  };
  const pasted = block.mcpServers.toolgate.headers.Authorization ?? '';
  assert.equal(pasted, `Bearer ${access.sampleToken}`);

  let now = start + HOUR + 60_000;
  const verifier = await verifierAt(config, () => now);
  assert.equal((await verifier.verify(pasted.slice('Bearer '.length))).subject, 'alice');
  now = start + DAY + HOUR;
  assert.equal((await verifier.verify(pasted.slice('Bearer '.length))).subject, 'alice');
  // It does expire: the bound is real.
  const later = await verifierAt(config, () => start + 31 * DAY);
  await assert.rejects(() => later.verify(pasted.slice('Bearer '.length)));
});

test('issue 27 trap 1: a restart prints the same token; in its last week a new one, kept for the next start', async () => {
  const config = await demoConfig();
  const start = Date.now();
  const first = await demoAccess(config, () => start);
  const restarted = await demoAccess(config, () => start + 2 * HOUR);
  assert.equal(restarted.sampleToken, first.sampleToken, 'the pasted block stays the printed one');
  assert.equal(restarted.subscriptionKey, first.subscriptionKey);
  const lastWeek = await demoAccess(config, () => start + 24 * DAY);
  assert.notEqual(lastWeek.sampleToken, first.sampleToken, 'renewed with a week left');
  const kept = JSON.parse(readFileSync(join(config.dataDir, 'demo-secrets.json'), 'utf8')) as {
    sampleToken?: string;
  };
  assert.equal(kept.sampleToken, lastWeek.sampleToken);
  // The old one still works until its own expiry.
  const verifier = await verifierAt(config, () => start + 24 * DAY);
  assert.equal((await verifier.verify(first.sampleToken ?? '')).subject, 'alice');
});

test('issue 27 trap 1: a configured maxTokenLifetimeSeconds shorter than 30 days bounds the demo token', async () => {
  const base = await demoConfig();
  const config = loadConfig({
    env: {},
    overrides: {
      dataDir: base.dataDir,
      gateway: {
        auth: {
          jwt: {
            issuer: 'http://127.0.0.1:8080/dev-idp',
            audience: 'http://127.0.0.1:8080/mcp',
            maxTokenLifetimeSeconds: 86_400,
          },
        },
      },
    },
  });
  const start = Date.now();
  const access = await demoAccess(config, () => start);
  assert.equal(
    Date.parse(access.sampleTokenExpiresAt ?? ''),
    Math.floor(start / 1000) * 1000 + 86_400_000,
  );
});
