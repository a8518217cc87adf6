// The development authorization server's token exchange grant (issue 28; RFC 8693) at its token endpoint,
// request by request (Fastify inject, no socket): what it accepts and what it refuses, the issued token's
// `act` chain (§4.1), its scopes and its lifetime, and that without configured clients the grant does not
// exist. The gateway's side (tokenExchangeProvider) is tested in token-exchange.test.ts.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { decodeJwt, importJWK, SignJWT } from 'jose';
import { createDevIdp, type DevIdp } from '../../../src/gateway/auth/dev-idp/idp.js';
import { createAuthorizationServer } from '../../../src/gateway/auth/dev-idp/authorization-server.js';
import { devAuthorizationRoutes } from '../../../src/gateway/auth/dev-idp/routes.js';
import type { Database } from '../../../src/shared/db/types.js';
import { openTestStore } from '../auth/dev-idp/store.js';

const ORIGIN = 'http://gw.test';
const ISSUER = `${ORIGIN}/dev-idp`;
const RESOURCE = `${ORIGIN}/mcp`;
const UPSTREAM = 'https://docs.example/mcp';
const CLIENT = { clientId: 'toolgate-gateway', clientSecret: 'exchange-secret-0123456789' };
const GRANT = 'urn:ietf:params:oauth:grant-type:token-exchange';
const ACCESS_TOKEN = 'urn:ietf:params:oauth:token-type:access_token';
const USERS = [{ sub: 'alice', email: 'alice@example.com' }];

interface Server {
  readonly app: FastifyInstance;
  readonly db: Database;
}

async function startServer(dir: string, idp: DevIdp, withClients: boolean): Promise<Server> {
  const db = await openTestStore(join(dir, withClients ? 'a' : 'b'), undefined, false);
  const provider = await createAuthorizationServer({
    db,
    issuer: ISSUER,
    idp,
    users: USERS,
    resources: [RESOURCE],
    resourceScopes: ['docs:read', 'docs:write'],
    interactionPath: '/dev-idp/interaction',
    accessTokenTtlSeconds: 600,
    refreshTokenTtlSeconds: 3600,
    exchangeClients: withClients ? [{ ...CLIENT, audiences: [UPSTREAM] }] : [],
  });
  const app = Fastify();
  await app.register(devAuthorizationRoutes({ provider, prefix: '/dev-idp', users: USERS }));
  await app.ready();
  return { app, db };
}

describe('the development server token exchange grant', () => {
  let dir: string;
  let idp: DevIdp;
  let server: Server;
  let bare: Server;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tg-exchange-'));
    idp = await createDevIdp({ dataDir: dir });
    server = await startServer(dir, idp, true);
    bare = await startServer(dir, idp, false);
  });
  after(async () => {
    for (const s of [server, bare]) {
      await s.app.close();
      await s.db.close();
    }
    await rm(dir, { recursive: true, force: true });
  });

  /** A subject token as the server itself would sign one (its key, its issuer), with these claims. */
  async function subjectToken(
    claims: Record<string, unknown> = {},
    ttlSeconds = 600,
  ): Promise<string> {
    const key = await importJWK(idp.signingJwk(), 'ES256');
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ scope: 'docs:read docs:write', ...claims })
      .setProtectedHeader({ alg: 'ES256', kid: idp.kid, typ: 'at+jwt' })
      .setIssuer(ISSUER)
      .setAudience(RESOURCE)
      .setSubject('alice')
      .setIssuedAt(now)
      .setExpirationTime(now + ttlSeconds)
      .sign(key);
  }

  async function exchange(
    form: Record<string, string>,
    options: { server?: Server; secret?: string } = {},
  ): Promise<{ status: number; body: Record<string, unknown> }> {
    const basic = Buffer.from(
      `${CLIENT.clientId}:${options.secret ?? CLIENT.clientSecret}`,
    ).toString('base64');
    const response = await (options.server ?? server).app.inject({
      method: 'POST',
      url: '/dev-idp/token',
      headers: {
        host: 'gw.test',
        authorization: `Basic ${basic}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: new URLSearchParams({
        grant_type: GRANT,
        subject_token_type: ACCESS_TOKEN,
        resource: UPSTREAM,
        ...form,
      }).toString(),
    });
    return { status: response.statusCode, body: response.json() as Record<string, unknown> };
  }

  test("RFC 8693 §2.2.1: the answer names the issued type, Bearer, expires_in and the scopes; without scope the subject token's are kept", async () => {
    const answer = await exchange({ subject_token: await subjectToken() });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal(answer.body.issued_token_type, ACCESS_TOKEN);
    assert.equal(answer.body.token_type, 'Bearer');
    assert.equal(answer.body.scope, 'docs:read docs:write');
    assert.equal(typeof answer.body.expires_in, 'number');
    const claims = decodeJwt(String(answer.body.access_token));
    assert.equal(claims.scope, 'docs:read docs:write');
    assert.equal(claims.aud, UPSTREAM);
    assert.equal(claims.iss, ISSUER);
  });

  test('RFC 8693 §4.1: a subject token that already names an actor gets it nested under the client', async () => {
    const answer = await exchange({
      subject_token: await subjectToken({ act: { sub: 'agent-7' } }),
    });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.deepEqual(decodeJwt(String(answer.body.access_token)).act, {
      sub: CLIENT.clientId,
      act: { sub: 'agent-7' },
    });
  });

  test('the issued token never outlives the subject token', async () => {
    const answer = await exchange({ subject_token: await subjectToken({}, 90) });
    assert.equal(answer.status, 200);
    assert.ok(Number(answer.body.expires_in) <= 90, String(answer.body.expires_in));
  });

  test('refusals: unsupported token types, an actor token, two targets, no target, no held scope, a re-exchange of an exchanged token, a wrong secret', async () => {
    const subject = await subjectToken();
    const exchanged = String(
      (await exchange({ subject_token: subject })).body.access_token ?? 'missing',
    );
    const cases: [string, Record<string, string>, number, string, RegExp?][] = [
      [
        'jwt subject type',
        { subject_token: subject, subject_token_type: 'urn:ietf:params:oauth:token-type:jwt' },
        400,
        'invalid_request',
        /subject_token_type/,
      ],
      [
        'id_token requested',
        {
          subject_token: subject,
          requested_token_type: 'urn:ietf:params:oauth:token-type:id_token',
        },
        400,
        'invalid_request',
        /requested_token_type/,
      ],
      [
        'actor token',
        { subject_token: subject, actor_token: subject, actor_token_type: ACCESS_TOKEN },
        400,
        'invalid_request',
        /actor_token/,
      ],
      [
        'audience ≠ resource',
        { subject_token: subject, audience: 'other' },
        400,
        'invalid_target',
        /two different targets/,
      ],
      [
        'audience = resource',
        { subject_token: subject, audience: UPSTREAM, scope: 'docs:admin' },
        400,
        'invalid_scope',
        /none of the requested scopes/,
      ],
      ['no subject token', {}, 400, 'invalid_request', /subject_token/],
      [
        'exchanged token as subject',
        { subject_token: exchanged },
        400,
        'invalid_grant',
        /not issued for the gateway/,
      ],
    ];
    for (const [label, form, status, error, description] of cases) {
      const answer = await exchange(form);
      assert.equal(answer.status, status, `${label}: ${JSON.stringify(answer.body)}`);
      assert.equal(answer.body.error, error, label);
      if (description !== undefined)
        assert.match(String(answer.body.error_description), description, label);
    }
    const noTarget = await server.app.inject({
      method: 'POST',
      url: '/dev-idp/token',
      headers: {
        host: 'gw.test',
        authorization: `Basic ${Buffer.from(`${CLIENT.clientId}:${CLIENT.clientSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: new URLSearchParams({
        grant_type: GRANT,
        subject_token_type: ACCESS_TOKEN,
        subject_token: subject,
      }).toString(),
    });
    assert.equal(noTarget.json<{ error: string }>().error, 'invalid_target');
    const wrong = await exchange({ subject_token: subject }, { secret: 'not-the-secret-123456' });
    assert.equal(wrong.status, 401);
    assert.equal(wrong.body.error, 'invalid_client');
  });

  test('without configured exchange clients the grant does not exist: not in the metadata, no client may register for it, nothing is issued', async () => {
    const supported = async (s: Server) =>
      (
        await s.app.inject({
          method: 'GET',
          url: '/dev-idp/.well-known/openid-configuration',
          headers: { host: 'gw.test' },
        })
      ).json<{ grant_types_supported: string[] }>().grant_types_supported;
    assert.ok((await supported(server)).includes(GRANT));
    assert.ok(!(await supported(bare)).includes(GRANT));
    const registration = await bare.app.inject({
      method: 'POST',
      url: '/dev-idp/reg',
      headers: { host: 'gw.test', 'content-type': 'application/json' },
      payload: {
        redirect_uris: [],
        response_types: [],
        grant_types: [GRANT],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    });
    assert.equal(registration.statusCode, 400, registration.body);
    assert.equal(registration.json<{ error: string }>().error, 'invalid_client_metadata');
    const answer = await exchange({ subject_token: await subjectToken() }, { server: bare });
    assert.equal(answer.status, 401, 'the gateway client is unknown there');
    assert.equal(answer.body.error, 'invalid_client');
  });
});
