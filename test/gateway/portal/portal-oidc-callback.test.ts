// The portal's OpenID Connect redirect_uri comes from configuration, never from the request's Host: the
// listener's own address (bound port included), one of its loopback names, or admin.publicUrl.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { createAdminApp } from '../../../src/gateway/admin/app.js';
import { migrateGatewayDatabase } from '../../../src/gateway/database.js';
import { openSqlite } from '../../../src/shared/db/sqlite.js';
import type { Database } from '../../../src/shared/db/types.js';
import { testConfig } from '../admin/support.js';

/** A provider that answers discovery only (enough to start a sign-in). */
async function startDiscovery(): Promise<{ issuer: string; close(): Promise<void> }> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  server.on('request', (req, res) => {
    if (req.url !== '/.well-known/openid-configuration') {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ['code'],
        code_challenge_methods_supported: ['S256'],
      }),
    );
  });
  return { issuer, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe('portal OpenID Connect redirect_uri', () => {
  let provider: Awaited<ReturnType<typeof startDiscovery>>;
  const apps: { app: FastifyInstance; db: Database }[] = [];

  before(async () => {
    provider = await startDiscovery();
  });
  after(async () => {
    for (const { app, db } of apps) {
      await app.close();
      await db.close();
    }
    await provider.close();
  });

  async function adminApp(admin: Record<string, unknown>): Promise<FastifyInstance> {
    const db = openSqlite({ path: ':memory:' });
    await migrateGatewayDatabase(db);
    const config = testConfig({
      admin: {
        ...admin,
        oidc: { issuer: provider.issuer, clientId: 'portal', algorithms: ['ES256'] },
      },
      gateway: { auth: { devIdentityProvider: { enabled: false } } },
    });
    const app = await createAdminApp({ config, logger: pino({ level: 'silent' }), db });
    apps.push({ app, db });
    return app;
  }

  /** The redirect_uri the portal sends the provider when a sign-in starts with this Host. */
  async function redirectUri(app: FastifyInstance, host: string): Promise<string | null> {
    const res = await app.inject({ url: '/portal/auth/oidc', headers: { host } });
    assert.equal(res.statusCode, 303, res.body);
    return new URL(String(res.headers.location)).searchParams.get('redirect_uri');
  }

  test('a forged Host does not become the redirect_uri: the listener address does', async () => {
    const app = await adminApp({ host: '127.0.0.1', port: 8182 });
    assert.equal(
      await redirectUri(app, 'evil.example:8182'),
      'http://127.0.0.1:8182/portal/auth/callback',
    );
    // On a loopback listener the browser's own loopback name is kept (the binding cookie is per host).
    assert.equal(
      await redirectUri(app, 'localhost:8182'),
      'http://localhost:8182/portal/auth/callback',
    );
  });

  test('with admin.publicUrl the redirect_uri is under it, whatever the Host', async () => {
    const app = await adminApp({ publicUrl: 'https://admin.example.com/' });
    assert.equal(
      await redirectUri(app, 'evil.example'),
      'https://admin.example.com/portal/auth/callback',
    );
  });

  test('a listener on port 0 uses the port it is bound to', async () => {
    const app = await adminApp({ host: '127.0.0.1', port: 0 });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as AddressInfo;
    const location = await new Promise<string>((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port, path: '/portal/auth/oidc', headers: { host: 'evil.example' } },
        (res) => {
          res.resume();
          resolve(String(res.headers.location));
        },
      );
      req.on('error', reject);
      req.end();
    });
    assert.equal(
      new URL(location).searchParams.get('redirect_uri'),
      `http://127.0.0.1:${port}/portal/auth/callback`,
    );
  });
});
