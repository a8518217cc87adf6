// Identity mode token-exchange against authorization servers that answer badly (issue 28; brief: "timeouts
// and size limits on everything crossing a network", "tokens never logged"): a scripted token endpoint
// checks the RFC 8693 §2.1 request the gateway sends and answers what each test needs — slow, oversized,
// not JSON, missing fields, a token type the gateway cannot send, an error echoing the token.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Caller } from '../../../src/gateway/caller.js';
import { GatewayError } from '../../../src/gateway/errors.js';
import {
  tokenExchangeProvider,
  type TokenExchangeBackend,
} from '../../../src/gateway/federation/token-exchange.js';
import { freePort } from '../../helpers/free-port.js';

const SUBJECT = 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJlLW9mLWFsaWNl';
const SECRET = 'client secret/with:odd+chars';

type Handler = (request: IncomingMessage, body: string, response: ServerResponse) => void;

let server: Server;
let endpoint: string;
let handler: Handler;
const received: { authorization: string; form: URLSearchParams }[] = [];

before(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      received.push({
        authorization: String(request.headers.authorization),
        form: new URLSearchParams(body),
      });
      handler(request, body, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/oauth/token?tenant=x`;
});

after(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

const GOOD = {
  access_token: 'exchanged-token-for-alice',
  issued_token_type: 'urn:ietf:params:oauth:token-type:access_token',
  token_type: 'Bearer',
  expires_in: 300,
};

function provider(settings: Record<string, unknown> = {}) {
  const backend: TokenExchangeBackend = {
    name: 'docs',
    identity: {
      mode: 'token-exchange',
      tokenExchange: {
        tokenEndpoint: endpoint,
        clientId: 'gateway client',
        clientSecret: SECRET,
        audience: 'docs-api',
        resource: 'https://docs.example/mcp',
        scope: 'docs:read',
        timeoutMs: 300,
        ...settings,
      },
    },
  };
  return tokenExchangeProvider([backend]);
}

const alice: Caller = {
  requestId: 'r',
  clientIp: '127.0.0.1',
  subscription: {
    id: 's',
    application: 'a',
    environment: 'development',
    tools: 'all',
    rateLimitPerMinute: null,
  },
  user: { subject: 'alice', claims: {}, expiresAt: 2_000_000_000, tokenHash: 'h' },
  authorization: `Bearer ${SUBJECT}`,
};

async function failure(run: () => Promise<unknown>): Promise<GatewayError> {
  try {
    await run();
  } catch (error) {
    assert.ok(error instanceof GatewayError, String(error));
    const shown = `${error.message} ${JSON.stringify(error.data)}`;
    assert.ok(!shown.includes(SUBJECT), `the subject token leaked: ${shown}`);
    assert.ok(!shown.includes(SECRET), `the client secret leaked: ${shown}`);
    assert.ok(!shown.includes('tenant=x'), 'the endpoint is named without its query');
    return error;
  }
  assert.fail('expected a GatewayError');
}

describe('token exchange: the request and the checks on the answer', () => {
  test('RFC 8693 §2.1 request: client_secret_basic (form-encoded id and secret), the grant, the subject token and its type, requested_token_type, audience, resource, scope', async () => {
    handler = (_request, _body, response) => json(response, 200, GOOD);
    received.length = 0;
    const credentials = await provider()(alice, 'docs');
    assert.deepEqual(credentials, {
      kind: 'headers',
      headers: { authorization: 'Bearer exchanged-token-for-alice' },
    });
    const [sent] = received;
    assert.ok(sent !== undefined);
    const basic = Buffer.from(sent.authorization.replace(/^Basic /, ''), 'base64').toString();
    // RFC 6749 §2.3.1: application/x-www-form-urlencoded before Base64.
    assert.equal(basic, 'gateway+client:client+secret%2Fwith%3Aodd%2Bchars');
    assert.deepEqual(Object.fromEntries(sent.form), {
      grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
      subject_token: SUBJECT,
      subject_token_type: 'urn:ietf:params:oauth:token-type:access_token',
      requested_token_type: 'urn:ietf:params:oauth:token-type:access_token',
      audience: 'docs-api',
      resource: 'https://docs.example/mcp',
      scope: 'docs:read',
    });
  });

  test('token_type N_A (RFC 8693 §2.2.1) is accepted and sent as a Bearer token; without expires_in nothing is cached', async () => {
    handler = (_request, _body, response) =>
      json(response, 200, { ...GOOD, token_type: 'N_A', expires_in: undefined });
    received.length = 0;
    const exchange = provider();
    await exchange(alice, 'docs');
    const again = await exchange(alice, 'docs');
    assert.deepEqual(again, {
      kind: 'headers',
      headers: { authorization: 'Bearer exchanged-token-for-alice' },
    });
    assert.equal(received.length, 2, 'an answer of unknown lifetime is not reused');
  });

  test('timeoutMs bounds the exchange: a server that never answers is UPSTREAM_UNAVAILABLE within it', async () => {
    handler = () => undefined; // never answers
    const started = Date.now();
    const error = await failure(() => provider({ timeoutMs: 200 })(alice, 'docs'));
    assert.ok(Date.now() - started < 2000, 'gave up near timeoutMs');
    assert.equal(error.code, 'UPSTREAM_UNAVAILABLE');
    assert.deepEqual(error.data, { reason: 'TOKEN_EXCHANGE_UNAVAILABLE', backend: 'docs' });
    assert.match(error.message, /backend docs: .*no answer within 200 ms/);
  });

  test('an answer over 64 KiB is refused without reading it all', async () => {
    handler = (_request, _body, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ ...GOOD, padding: 'x'.repeat(200_000) }));
    };
    const error = await failure(() => provider()(alice, 'docs'));
    assert.match(error.message, /exceeds 65536 bytes/);
  });

  test('nothing listening: UPSTREAM_UNAVAILABLE naming the backend and the endpoint', async () => {
    const port = await freePort();
    const error = await failure(() =>
      provider({ tokenEndpoint: `http://127.0.0.1:${port}/token` })(alice, 'docs'),
    );
    assert.equal(error.code, 'UPSTREAM_UNAVAILABLE');
    assert.match(
      error.message,
      new RegExp(`backend docs: .*127\\.0\\.0\\.1:${port}/token.*ECONNREFUSED`),
    );
  });

  test('answers that are not a usable token response are refused, each with its reason (RFC 8693 §2.2.1)', async () => {
    const cases: [string, (response: ServerResponse) => void, RegExp][] = [
      ['HTTP 500', (r) => json(r, 500, { error: 'server_error' }), /HTTP 500/],
      [
        'HTML',
        (r) => r.writeHead(200, { 'content-type': 'text/html' }).end('<p>hi</p>'),
        /not a JSON object/,
      ],
      [
        'no access_token',
        (r) => json(r, 200, { ...GOOD, access_token: undefined }),
        /no usable access_token/,
      ],
      [
        'token with spaces',
        (r) => json(r, 200, { ...GOOD, access_token: 'a b' }),
        /no usable access_token/,
      ],
      [
        'no issued_token_type',
        (r) => json(r, 200, { ...GOOD, issued_token_type: undefined }),
        /issued_token_type is missing/,
      ],
      [
        'a refresh token',
        (r) =>
          json(r, 200, {
            ...GOOD,
            issued_token_type: 'urn:ietf:params:oauth:token-type:refresh_token',
          }),
        /issued_token_type is "urn:ietf:params:oauth:token-type:refresh_token"/,
      ],
      ['DPoP', (r) => json(r, 200, { ...GOOD, token_type: 'DPoP' }), /token_type is "DPoP"/],
      [
        'expires_in 0',
        (r) => json(r, 200, { ...GOOD, expires_in: 0 }),
        /expires_in is number, not a positive number/,
      ],
      [
        'expires_in text',
        (r) => json(r, 200, { ...GOOD, expires_in: '300' }),
        /expires_in is "300"/,
      ],
    ];
    for (const [label, answer, reason] of cases) {
      handler = (_request, _body, response) => answer(response);
      const error = await failure(() => provider()(alice, 'docs'));
      assert.equal(error.code, 'UPSTREAM_UNAVAILABLE', label);
      assert.match(error.message, reason, label);
    }
  });

  test('an OAuth error that echoes the subject token or the secret is passed on with them removed', async () => {
    handler = (_request, body, response) => {
      const token = new URLSearchParams(body).get('subject_token');
      json(response, 400, {
        error: 'invalid_grant',
        error_description: `token ${token} rejected; secret ${SECRET}; other eyJabc.eyJdef.ghi\nline`,
      });
    };
    const error = await failure(() => provider()(alice, 'docs'));
    assert.equal(error.code, 'FORBIDDEN');
    assert.deepEqual(error.data, {
      reason: 'TOKEN_EXCHANGE_REFUSED',
      backend: 'docs',
      error: 'invalid_grant',
    });
    assert.match(error.message, /invalid_grant \(token … rejected; secret …; other … line\)/);
  });

  test('a backend not in mode token-exchange is a programming error (INTERNAL), not a silent pass', async () => {
    const error = await failure(() => provider()(alice, 'elsewhere'));
    assert.equal(error.code, 'INTERNAL');
  });
});
