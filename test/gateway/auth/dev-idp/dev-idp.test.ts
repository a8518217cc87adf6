import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { createDevIdp, DEV_IDP_KEY_FILE } from '../../../../src/gateway/auth/dev-idp/idp.js';
import { createAuthorizationServer } from '../../../../src/gateway/auth/dev-idp/authorization-server.js';
import { openTestStore } from './store.js';
import {
  devAuthorizationRoutes,
  INTERACTION_SEGMENT,
} from '../../../../src/gateway/auth/dev-idp/routes.js';
import { createJwtVerifier } from '../../../../src/gateway/auth/jwt/verify.js';
import { AuthError } from '../../../../src/gateway/auth/jwt/errors.js';
import { resolveJwtConfig } from '../../../../src/config/gateway-jwt.js';

async function tempDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'tg-dev-idp-'));
}

describe('development identity provider', () => {
  test('Decision jwt/dev-idp: the signing key file is created with mode 0600 and reused on the next start', async (t) => {
    const dir = await tempDir();
    t.after(() => rm(dir, { recursive: true, force: true }));
    const first = await createDevIdp({ dataDir: join(dir, 'data') });
    assert.equal(first.created, true);
    const info = await stat(join(dir, 'data', DEV_IDP_KEY_FILE));
    assert.equal(info.mode & 0o777, 0o600);
    const content = await readFile(first.keyFile, 'utf8');
    const second = await createDevIdp({ dataDir: join(dir, 'data') });
    assert.equal(second.created, false);
    assert.equal(second.kid, first.kid);
    assert.equal(await readFile(second.keyFile, 'utf8'), content);
    assert.deepEqual(second.jwks(), first.jwks());
    assert.equal(second.jwks().keys[0]?.d, undefined, 'the JWKS exposes no private part');
  });

  test("Spec Authentication §2: a minted token verifies with createJwtVerifier through the authorization server's discovery and JWKS", async (t) => {
    const dir = await tempDir();
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}/dev-idp`;
    const idp = await createDevIdp({ dataDir: dir });
    const users = [{ sub: 'alice' }];
    const provider = await createAuthorizationServer({
      db: await openTestStore(dir),
      issuer,
      idp,
      users,
      resources: ['http://127.0.0.1:8080/mcp'],
      resourceScopes: [],
      interactionPath: `/dev-idp${INTERACTION_SEGMENT}`,
      accessTokenTtlSeconds: 600,
      refreshTokenTtlSeconds: 3600,
    });
    const app = Fastify();
    await app.register(devAuthorizationRoutes({ provider, prefix: '/dev-idp', users }));
    await app.ready();
    server.on('request', (req, res) => app.routing(req, res));
    t.after(async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await app.close();
      await rm(dir, { recursive: true, force: true });
    });
    const audience = 'http://127.0.0.1:8080/mcp';
    const verifier = createJwtVerifier(resolveJwtConfig({ issuer, audience }));
    const token = await idp.mintToken({
      sub: 'alice',
      ttlSeconds: 600,
      claims: { tenant: 'acme', sub: 'mallory' },
      audience,
      issuer,
    });
    const user = await verifier.verify(token);
    assert.equal(user.subject, 'alice');
    assert.equal(user.claims['tenant'], 'acme');
    assert.equal(user.expiresAt - (user.claims['iat'] as number), 600);
    // Tokens from a different dev IdP (another key) are rejected.
    const otherDir = await tempDir();
    t.after(() => rm(otherDir, { recursive: true, force: true }));
    const other = await createDevIdp({ dataDir: otherDir });
    await assert.rejects(
      verifier.verify(await other.mintToken({ sub: 'eve', audience, issuer })),
      (err: unknown) => err instanceof AuthError && err.code === 'KEY_NOT_FOUND',
    );
  });
});
