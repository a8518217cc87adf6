// The admin listener signs users in with the identity-provider settings in force: after a new issuer is
// saved through the admin API, a token of the new issuer authenticates at /me and one of the old does not,
// without a restart (the user-token settings the admin app opens: user-tokens.ts).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../../src/config/load.js';
import { createAdminApp } from '../../../src/gateway/admin/app.js';
import { migrateGatewayDatabase } from '../../../src/gateway/database.js';
import { openSqlite } from '../../../src/shared/db/sqlite.js';
import type { Database } from '../../../src/shared/db/types.js';
import { createLogger } from '../../../src/shared/log/logger.js';
import { LogCapture } from '../../helpers/capture.js';
import { makeKey, mint, type SigningKey } from '../auth/helpers.js';

const ADMIN_TOKEN = 'tga_live-signin-bootstrap-token-0123456789';
const OLD_ISSUER = 'https://old.example.test';
const NEW_ISSUER = 'https://new.example.test';
const AUDIENCE = 'http://127.0.0.1:8080/mcp';

let db: Database;
let app: FastifyInstance;
let oldKey: SigningKey;
let newKey: SigningKey;

before(async () => {
  oldKey = await makeKey('old', 'ES256');
  newKey = await makeKey('new', 'ES256');
  const config = loadConfig({
    env: {},
    overrides: {
      dataDir: mkdtempSync(join(tmpdir(), 'toolgate-live-signin-')),
      logging: { level: 'warn' },
      admin: { bootstrapToken: ADMIN_TOKEN },
      gateway: {
        auth: {
          devIdentityProvider: { enabled: false },
          jwt: { issuer: OLD_ISSUER, audience: AUDIENCE, staticKeys: [{ jwk: oldKey.publicJwk }] },
          settingsRefreshMs: 100,
        },
      },
    },
  });
  db = openSqlite({ path: ':memory:' });
  await migrateGatewayDatabase(db);
  const { logger } = createLogger({ level: 'warn', destination: new LogCapture() });
  app = await createAdminApp({ config, logger, db });
});
after(async () => {
  await app.close();
  await db.close();
});

async function me(token: string): Promise<number> {
  const reply = await app.inject({
    method: 'GET',
    url: '/admin/api/v1/me',
    headers: { authorization: `Bearer ${token}` },
  });
  return reply.statusCode;
}

function userToken(key: SigningKey, issuer: string): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return mint(key, { iss: issuer, aud: AUDIENCE, sub: 'carol', iat: now, exp: now + 600 });
}

test('a saved issuer is the one admin sign-in accepts, without a restart', async () => {
  const oldToken = await userToken(oldKey, OLD_ISSUER);
  const newToken = await userToken(newKey, NEW_ISSUER);
  assert.equal(await me(oldToken), 200);
  assert.equal(await me(newToken), 401);
  const saved = await app.inject({
    method: 'PUT',
    url: '/admin/api/v1/identity-provider',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    payload: {
      settings: {
        mode: 'conditional',
        issuer: NEW_ISSUER,
        audience: AUDIENCE,
        jwks: { keys: [newKey.publicJwk] },
        forwardClaims: [],
      },
      sampleToken: newToken,
    },
  });
  assert.equal(saved.statusCode, 200, saved.body);
  const deadline = Date.now() + 10_000;
  while (!((await me(newToken)) === 200 && (await me(oldToken)) === 401)) {
    if (Date.now() > deadline) throw new Error('the admin listener did not apply the settings');
    await new Promise((r) => setTimeout(r, 25));
  }
});
