// Secrets never reach the logs: subscription keys, bearer tokens, api-keys, cookies, the subscription-key
// query parameter and configured secrets are masked to "…" plus at most the last 4 characters.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createLogger } from '../../../src/shared/log/logger.js';
import { maskSecret, maskUrlPassword } from '../../../src/shared/log/mask.js';
import { createHttpApp } from '../../../src/shared/http/create-app.js';
import { LogCapture } from '../../helpers/capture.js';

const SUBSCRIPTION_KEY = 'tgk_4eC39HqLyjWDarjtT1zdp7dcK9xQ2';
const JWT =
  'eyJhbGciOiJSUzI1NiIsImtpZCI6ImRldiJ9.eyJzdWIiOiJhbGljZSIsImF1ZCI6InRvb2xnYXRlIn0.c2lnbmF0dXJlLXNpZ25hdHVyZS1zaWduYXR1cmU';
const API_KEY = 'pk_live_51HqLyjWDarjtT1zdp7dc';
const COOKIE_VALUE = 'session=9f8e7d6c5b4a39281706f5e4d3c2b1a0';
const CONFIGURED_SECRET = 'operator-token-Zx81Qw93Lk27';

function build() {
  const capture = new LogCapture();
  const { logger } = createLogger({
    level: 'trace',
    secrets: [CONFIGURED_SECRET],
    destination: capture,
  });
  const app = createHttpApp({
    logger,
    bodyLimitBytes: 1024 * 1024,
    requestTimeoutMs: 5000,
    keepAliveTimeoutMs: 5000,
  });
  app.post('/echo', async (req) => {
    // A careless handler that logs everything it received.
    req.log.info({ headers: req.headers, body: req.body, query: req.query }, 'handler saw request');
    req.log.warn(
      `raw dump: auth=${String(req.headers.authorization)} key=${String(req.headers['ocp-apim-subscription-key'])}`,
    );
    return { ok: true };
  });
  return { app, capture };
}

test('a request carrying a subscription key, bearer token, api-key and cookie leaves no secret in the logs', async () => {
  const { app, capture } = build();
  const response = await app.inject({
    method: 'POST',
    url: `/echo?subscription-key=${SUBSCRIPTION_KEY}&page=2`,
    headers: {
      'ocp-apim-subscription-key': SUBSCRIPTION_KEY,
      authorization: `Bearer ${JWT}`,
      'api-key': API_KEY,
      cookie: COOKIE_VALUE,
      'content-type': 'application/json',
    },
    payload: { note: `operator said ${CONFIGURED_SECRET}`, token: JWT },
  });
  assert.equal(response.statusCode, 200);
  await app.close();

  const text = capture.text;
  assert.ok(capture.lines.length >= 3, 'request, handler and response lines were logged');
  for (const secret of [SUBSCRIPTION_KEY, JWT, API_KEY, COOKIE_VALUE, CONFIGURED_SECRET]) {
    assert.equal(
      text.includes(secret),
      false,
      `log output contains a secret ending ${secret.slice(-4)}`,
    );
  }
  // Nor a recognisable prefix long enough to matter.
  assert.equal(text.includes(JWT.slice(0, 40)), false);
  assert.equal(text.includes(SUBSCRIPTION_KEY.slice(0, 16)), false);
  // Masked references remain so operators can still correlate.
  assert.ok(text.includes(`…${SUBSCRIPTION_KEY.slice(-4)}`));
  assert.ok(text.includes(`…${API_KEY.slice(-4)}`));
  assert.ok(text.includes(`…${CONFIGURED_SECRET.slice(-4)}`));
  // Every line is JSON with the request id.
  const handlerLine = capture.records().find((r) => r.msg === 'handler saw request');
  assert.equal(typeof handlerLine?.reqId, 'string');
});

test('maskSecret keeps at most the last 4 characters and nothing of short values', () => {
  assert.equal(maskSecret('abcdefghijkl1234'), '…1234');
  assert.equal(maskSecret('abcdefghij12'), '…12');
  assert.equal(maskSecret('tgk_4eC39HqLyjWDarjtT1zdp7dcK9xQ2'), 'tgk_…9xQ2');
  assert.equal(maskSecret('short'), '…');
  assert.equal(maskSecret(''), '…');
});

test('maskUrlPassword hides the password and keeps the target', () => {
  assert.equal(
    maskUrlPassword('postgres://app:pw@db.internal:5432/x'),
    'postgres://app:%E2%80%A6@db.internal:5432/x',
  );
  assert.equal(maskUrlPassword('redis://127.0.0.1:6379'), 'redis://127.0.0.1:6379');
});

test('a JWT whose header does not encode to eyJ, and a tgk_ key, are masked in a logged URL, header and field', async () => {
  const { app, capture } = build();
  // `{ "alg":…` with a space after the brace encodes to `eyAi…`; a tab gives `ewki…`.
  const header = (json: string) => Buffer.from(json).toString('base64url');
  const payload = Buffer.from('{"sub":"alice","aud":"toolgate"}').toString('base64url');
  const signature = 'c2lnbmF0dXJlLXNpZ25hdHVyZS1zaWduYXR1cmU';
  const spaced = `${header('{ "alg":"RS256","kid":"dev"}')}.${payload}.${signature}`;
  const tabbed = `${header('\t{"alg":"ES256"}')}.${payload}.${signature}`;
  assert.ok(spaced.startsWith('eyAi') && tabbed.startsWith('CXsi'));
  const response = await app.inject({
    method: 'POST',
    url: `/echo?token=${spaced}&other=${tabbed}&k=${SUBSCRIPTION_KEY}`,
    headers: { 'x-forwarded-token': tabbed, 'content-type': 'application/json' },
    payload: { token: spaced, nested: { key: `key:${SUBSCRIPTION_KEY}` } },
  });
  assert.equal(response.statusCode, 200);
  await app.close();
  const text = capture.text;
  for (const secret of [spaced, tabbed, payload, SUBSCRIPTION_KEY])
    assert.equal(text.includes(secret), false, `log output contains …${secret.slice(-4)}`);
  assert.ok(text.includes(`…${signature.slice(-4)}`), 'a masked reference remains');
});

test('the scrubber leaves host names and dotted versions readable', () => {
  const { logger, scrubber } = createLogger({ level: 'silent', destination: new LogCapture() });
  void logger;
  const line =
    'GET https://toolgate.example.test/mcp upstream=payments.internal.svc version=20.19.0';
  assert.equal(scrubber.scrub(line), line);
});
