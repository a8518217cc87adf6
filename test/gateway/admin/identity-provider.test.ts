// Identity-provider settings changed through the admin service are honoured by running gateways without a
// restart: two gateways on one database, the issuer changed → within the refresh interval both accept a
// token of the new issuer and refuse one of the old; a revert restores the configuration's issuer.
// Validation runs live against a real OpenID provider (oidc-provider): discovery, JWKS, key ids, a sample
// token; invalid settings are refused with the field at fault and nothing is stored.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../../src/config/load.js';
import { createGateway } from '../../../src/gateway/create-gateway.js';
import { IdentityProviderService } from '../../../src/gateway/admin/identity-provider/service.js';
import { AdminError } from '../../../src/gateway/admin/errors.js';
import type { IdpSettings } from '../../../src/gateway/admin/identity-provider/settings.js';
import { SubscriptionStore } from '../../../src/gateway/auth/subscriptions/store.js';
import { migrateGatewayDatabase } from '../../../src/gateway/database.js';
import { openSqlite } from '../../../src/shared/db/sqlite.js';
import type { Database } from '../../../src/shared/db/types.js';
import { createLogger } from '../../../src/shared/log/logger.js';
import { LogCapture } from '../../helpers/capture.js';
import {
  makeKey,
  mint,
  startOidcProvider,
  type LoopbackIdp,
  type SigningKey,
} from '../auth/helpers.js';
import { startFixtureBackend, type FixtureBackend } from '../support/fixture-backend.js';
import { MCP_HEADERS, fixtureBackendConfig } from '../support/gateway.js';
import { ADMIN, DEVELOPER, RecordingAuditSink } from './live-support.js';
import { DATABASE_TARGETS, type OpenedDatabase } from './support.js';

const OLD_ISSUER = 'https://old-idp.example.test';
const NEW_ISSUER = 'https://new-idp.example.test';
const AUDIENCE = 'http://127.0.0.1:8080/mcp';

function token(key: SigningKey, issuer: string, audience = AUDIENCE): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return mint(key, { iss: issuer, aud: audience, sub: 'user-1', iat: now, exp: now + 600 });
}

for (const target of DATABASE_TARGETS)
  describe(
    `identity-provider settings on two replicas (${target.name})`,
    { skip: target.skip },
    () => {
      let backend: FixtureBackend;
      let opened: OpenedDatabase;
      let db: Database;
      let replicas: FastifyInstance[];
      let key: string;
      let oldKey: SigningKey;
      let newKey: SigningKey;
      let service: IdentityProviderService;
      let audit: RecordingAuditSink;

      before(async () => {
        backend = await startFixtureBackend();
        oldKey = await makeKey('old-1', 'ES256');
        newKey = await makeKey('new-1', 'RS256');
        opened = await target.open();
        db = opened.db;
        const jwt = {
          mode: 'required',
          issuer: OLD_ISSUER,
          audience: AUDIENCE,
          staticKeys: [{ jwk: oldKey.publicJwk }],
        };
        const config = loadConfig({
          env: {},
          overrides: {
            dataDir: mkdtempSync(join(tmpdir(), 'toolgate-idp-')),
            logging: { level: 'warn' },
            gateway: {
              backends: [fixtureBackendConfig(backend.baseUrl)],
              auth: { devIdentityProvider: { enabled: false }, jwt, settingsRefreshMs: 100 },
              usage: { enabled: false },
            },
          },
        });
        replicas = [];
        for (let i = 0; i < 2; i++) {
          const { logger } = createLogger({ level: 'warn', destination: new LogCapture() });
          replicas.push(await createGateway({ config, logger, stores: { db } }));
        }
        key = (
          await new SubscriptionStore(db).create({
            application: 'idp-agent',
            environment: 'development',
          })
        ).primaryKey;
        audit = new RecordingAuditSink();
        service = new IdentityProviderService({
          db,
          audit,
          file: config.gateway.auth.jwt,
          configured: null,
        });
      });
      after(async () => {
        for (const app of replicas) await app.close();
        await opened.close();
        await backend.close();
      });

      async function status(app: FastifyInstance, bearer: string): Promise<number> {
        const reply = await app.inject({
          method: 'POST',
          url: '/mcp',
          headers: {
            ...MCP_HEADERS,
            'mcp-protocol-version': '2025-11-25',
            'ocp-apim-subscription-key': key,
            authorization: `Bearer ${bearer}`,
          },
          payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
        });
        return reply.statusCode;
      }

      /** Asks every replica until `accepted` gets 200 and `refused` 401 (the poll runs in the background). */
      async function honoured(accepted: string, refused: string): Promise<void> {
        const deadline = Date.now() + 10_000;
        for (const app of replicas) {
          for (;;) {
            if ((await status(app, accepted)) === 200 && (await status(app, refused)) === 401)
              break;
            if (Date.now() > deadline) throw new Error('the replicas did not apply the settings');
            await new Promise((r) => setTimeout(r, 25));
          }
        }
      }

      test('a new issuer is honoured by both replicas, and a revert restores the old one', async () => {
        const oldToken = await token(oldKey, OLD_ISSUER);
        const newToken = await token(newKey, NEW_ISSUER);
        for (const app of replicas) {
          assert.equal(await status(app, oldToken), 200);
          assert.equal(await status(app, newToken), 401);
        }
        const saved = await service.save(ADMIN, {
          settings: {
            mode: 'required',
            issuer: NEW_ISSUER,
            audience: AUDIENCE,
            jwks: { keys: [newKey.publicJwk] },
            forwardClaims: [{ claim: 'email', header: 'X-User-Email' }],
          },
          sampleToken: newToken,
        });
        assert.equal(saved.version, 1);
        await honoured(newToken, oldToken);

        const reverted = await service.revert(ADMIN);
        assert.equal(reverted.version, 2);
        assert.equal(reverted.revertedFrom, 0);
        assert.equal(reverted.settings, null);
        await honoured(oldToken, newToken);
        const current = await service.current(ADMIN);
        assert.equal(
          current.source,
          'none',
          'configured: null in this service: the file is in force',
        );
        assert.equal(current.version, 2);

        // Reverting again restores version 1 as version 3.
        const again = await service.revert(ADMIN);
        assert.deepEqual(
          [again.version, again.revertedFrom, again.settings?.issuer],
          [3, 1, NEW_ISSUER],
        );
        await honoured(newToken, oldToken);

        assert.deepEqual(
          (await service.versions(ADMIN)).map((v) => v.version),
          [3, 2, 1],
        );
        assert.deepEqual(
          audit.entries.map((e) => e.action),
          ['identity-provider.update', 'identity-provider.revert', 'identity-provider.revert'],
        );
        assert.deepEqual(audit.inTransaction, [true, true, true]);
      });

      test('only admins', async () => {
        await assert.rejects(
          service.current(DEVELOPER),
          (e: unknown) => e instanceof AdminError && e.code === 'FORBIDDEN',
        );
      });
    },
  );

describe('identity-provider validation against a real OpenID provider', () => {
  let idp: LoopbackIdp;
  let signing: SigningKey;
  let db: Database;
  let service: IdentityProviderService;

  before(async () => {
    signing = await makeKey('idp-key-1', 'RS256');
    idp = await startOidcProvider([signing]);
    db = openSqlite({ path: ':memory:' });
    await migrateGatewayDatabase(db);
    service = new IdentityProviderService({ db, audit: new RecordingAuditSink() });
  });
  after(async () => {
    await idp.close();
    await db.close();
  });

  const settings = (extra: Partial<IdpSettings> = {}): IdpSettings => ({
    mode: 'conditional',
    issuer: idp.issuer,
    audience: AUDIENCE,
    forwardClaims: [],
    ...extra,
  });

  test('discovery fetched, keys listed, a sample token verified', async () => {
    const report = await service.validate(ADMIN, {
      settings: settings(),
      sampleToken: await token(signing, idp.issuer),
    });
    assert.equal(report.ok, true, JSON.stringify(report.problems));
    assert.equal(report.issuer, idp.issuer);
    assert.equal(report.jwksUri?.startsWith(idp.issuer), true);
    assert.deepEqual(
      report.keys.map((k) => [k.kid, k.kty, k.usable]),
      [['idp-key-1', 'RSA', true]],
    );
    assert.deepEqual(report.sampleToken, { ok: true, subject: 'user-1' });
  });

  test('problems name their field; save refuses with 422 and stores nothing', async () => {
    const wrongAudience = await token(signing, idp.issuer, 'https://elsewhere.example.test');
    const report = await service.validate(ADMIN, {
      settings: settings(),
      sampleToken: wrongAudience,
    });
    assert.equal(report.ok, false);
    assert.equal(report.sampleToken?.ok, false);
    assert.match(report.sampleToken?.error ?? '', /AUDIENCE_MISMATCH/);
    assert.deepEqual(
      report.problems.map((p) => p.field),
      ['sampleToken'],
    );

    const misnamed = await service.validate(ADMIN, {
      settings: settings({
        issuer: 'https://someone-else.example.test',
        discoveryUrl: `${idp.issuer}/.well-known/openid-configuration`,
      }),
    });
    assert.deepEqual(
      misnamed.problems.map((p) => p.field),
      ['settings.issuer'],
    );

    idp.down = true;
    try {
      const down = await service.validate(ADMIN, {
        settings: settings({ discoveryUrl: `${idp.issuer}/.well-known/openid-configuration` }),
      });
      assert.equal(down.problems[0]?.field, 'settings.discoveryUrl');
      assert.match(down.problems[0]?.message ?? '', /HTTP 503/);
    } finally {
      idp.down = false;
    }

    // Settings that break their schema never reach the service: the route refuses them with the same
    // report, every field named (live-routes.test.ts, "identity provider: validate, save …").

    const badKey = await service.validate(ADMIN, {
      settings: settings({ jwks: { keys: [{ kty: 'RSA', n: 'abc' }] } }),
    });
    assert.equal(badKey.problems[0]?.field, 'settings.jwks.keys.0');

    await assert.rejects(
      service.save(ADMIN, { settings: settings(), sampleToken: wrongAudience }),
      (e: unknown) =>
        e instanceof AdminError &&
        e.code === 'IDP_SETTINGS_INVALID' &&
        e.status === 422 &&
        e.fields[0]?.field === 'sampleToken',
    );
    assert.deepEqual(await service.versions(ADMIN), []);
    await assert.rejects(
      service.revert(ADMIN),
      (e: unknown) => e instanceof AdminError && e.code === 'IDP_NO_PREVIOUS_VERSION',
    );
  });
});
