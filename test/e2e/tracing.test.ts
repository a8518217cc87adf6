// Issue 29, "Traces": the gateway and the payment service as separate `toolgate` processes, exporting
// OTLP/HTTP to a real receiver (test/helpers/otlp-receiver.ts) — the gateway in the default protobuf form,
// the payment service in the JSON form. One `tools/call getMyAccountBalance` with a user token and an
// incoming W3C traceparent gives one trace across both services: gateway `POST /mcp` server span → the
// message's span (MCP semantic conventions) → admission and policy steps and the backend CLIENT span →
// the payment service's server span (its parent is the client span: the traceparent sent is that span's)
// → its use-case span (`payments.getAccountBalance`) and database spans. The export holds no subscription
// key, token, argument value, user id or collector credential; the call's access line carries its
// trace_id. A second gateway with the sampler at 0 exports nothing, and the payment service,
// parent-based, records nothing of that call either.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { SignJWT, exportJWK, generateKeyPair } from 'jose';
import { finished, runCli, spawnCli, waitForSummary } from '../helpers/process.js';
import { SPAN_KIND, startOtlpReceiver, type ReceivedSpan } from '../helpers/otlp-receiver.js';
import { demoIbanFor } from '../../src/payments/domain/demo-account.js';

const ISSUER = 'https://idp.example.test';
const AUDIENCE = 'toolgate-tracing-e2e';
const COLLECTOR_SECRET = 'collector-credential-5b1f0c';
const MCP_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-06-18',
};

const children: ReturnType<typeof spawnCli>[] = [];
after(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
});

/** Stops a service the way an operator does (SIGTERM: drain, export the last spans) and checks it exits 0. */
async function stop(child: ReturnType<typeof spawnCli>): Promise<void> {
  child.kill('SIGTERM');
  const end = await finished(child, 20000);
  assert.equal(end.code, 0, end.stderr);
}

const hexId = (bytes: number) => randomBytes(bytes).toString('hex');

test('one tools/call traced across gateway and payment service: one trace, the tree of spans, no secrets, sampler 0 exports nothing', async () => {
  const receiver = await startOtlpReceiver();
  const quiet = await startOtlpReceiver();
  try {
    const dataDir = mkdtempSync(join(tmpdir(), 'toolgate-tracing-'));
    const secret = randomBytes(24).toString('base64url');
    const { publicKey, privateKey } = await generateKeyPair('ES256');
    const jwk = { ...(await exportJWK(publicKey)), kid: 'trace-key', alg: 'ES256' };
    const common = { TOOLGATE_DATA_DIR: dataDir, TOOLGATE_LOG_LEVEL: 'info' };
    const otel = {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      OTEL_EXPORTER_OTLP_HEADERS: `authorization=Bearer%20${COLLECTOR_SECRET}`,
    };

    const paymentsConfig = join(dataDir, 'payments.json');
    writeFileSync(
      paymentsConfig,
      JSON.stringify({ payments: { identity: { sharedSecret: secret } } }),
    );
    const payments = spawnCli(['payments', '--json'], {
      ...common,
      ...otel,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      TOOLGATE_CONFIG: paymentsConfig,
      TOOLGATE_PAYMENTS_PORT: '0',
    });
    children.push(payments);
    const paymentsUrl = (await waitForSummary(payments)).paymentsUrl;
    assert.ok(paymentsUrl);
    const origin = new URL(paymentsUrl).origin;

    const gatewayConfig = join(dataDir, 'gateway.json');
    writeFileSync(
      gatewayConfig,
      JSON.stringify({
        gateway: {
          auth: {
            devIdentityProvider: { enabled: false },
            jwt: { issuer: ISSUER, audience: AUDIENCE, staticKeys: [{ jwk }] },
          },
          backends: [
            {
              name: 'accounts',
              baseUrl: `${origin}/accounts/v1`,
              openapi: { file: join(process.cwd(), 'src', 'payments', 'openapi', 'accounts.yaml') },
              approve: 'all',
              identity: { mode: 'headers', sharedSecret: secret },
            },
          ],
        },
      }),
    );
    const env = { ...common, TOOLGATE_CONFIG: gatewayConfig };
    const created = await runCli(
      ['keys', 'create', '--app', 'trace-agent', '--env', 'development', '--json'],
      env,
    );
    assert.equal(created.code, 0, created.stderr);
    const key = (JSON.parse(created.stdout) as { primaryKey: string }).primaryKey;
    const token = await new SignJWT({})
      .setProtectedHeader({ alg: 'ES256', kid: 'trace-key' })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setSubject('alice')
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(privateKey);

    // The gateway: protobuf, the default protocol.
    const gateway = spawnCli(['gateway', '--json'], {
      ...env,
      ...otel,
      OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=tracing-e2e',
      TOOLGATE_GATEWAY_PORT: '0',
    });
    children.push(gateway);
    const mcpUrl = (await waitForSummary(gateway)).mcpUrl ?? '';
    const iban = demoIbanFor('alice');
    const call = (url: string, traceparent: string) =>
      fetch(url, {
        method: 'POST',
        headers: {
          ...MCP_HEADERS,
          'ocp-apim-subscription-key': key,
          authorization: `Bearer ${token}`,
          traceparent,
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'getMyAccountBalance', arguments: { accountId: iban } },
        }),
      });

    const traceId = hexId(16);
    const callerSpan = hexId(8);
    const response = await call(mcpUrl, `00-${traceId}-${callerSpan}-01`);
    assert.equal(response.status, 200);
    const body = (await response.json()) as { result?: { isError?: boolean } };
    assert.ok(body.result, JSON.stringify(body));

    const inTrace = (spans: readonly ReceivedSpan[]) => spans.filter((s) => s.traceId === traceId);
    await receiver.waitFor((spans) =>
      inTrace(spans).some((s) => s.service === 'toolgate-payments' && s.kind === SPAN_KIND.server),
    );
    await receiver.waitFor((spans) =>
      inTrace(spans).some((s) => s.name === 'tools/call getMyAccountBalance'),
    );

    // The tree. Every span of the call is in the caller's trace (its trace id kept).
    const spans = inTrace(receiver.spans);
    const one = (predicate: (s: ReceivedSpan) => boolean, what: string): ReceivedSpan => {
      const found = spans.filter(predicate);
      assert.equal(found.length, 1, `${what}: ${JSON.stringify(spans.map((s) => s.name))}`);
      return found[0] as ReceivedSpan;
    };
    const http = one(
      (s) => s.service === 'toolgate-gateway' && s.name === 'POST /mcp',
      'the gateway server span',
    );
    assert.equal(http.kind, SPAN_KIND.server);
    assert.equal(http.parentSpanId, callerSpan, 'the incoming traceparent is its parent');
    const message = one((s) => s.name === 'tools/call getMyAccountBalance', 'the message span');
    assert.equal(message.parentSpanId, http.spanId);
    assert.equal(message.kind, SPAN_KIND.server);
    assert.deepEqual(
      {
        method: message.attributes['mcp.method.name'],
        tool: message.attributes['gen_ai.tool.name'],
        operation: message.attributes['gen_ai.operation.name'],
        version: message.attributes['mcp.protocol.version'],
        id: message.attributes['jsonrpc.request.id'],
        outcome: message.attributes['toolgate.outcome'],
      },
      {
        method: 'tools/call',
        tool: 'getMyAccountBalance',
        operation: 'execute_tool',
        version: '2025-06-18',
        id: '1',
        outcome: body.result?.isError === true ? 'tool_error' : 'ok',
      },
    );
    for (const step of [
      'toolgate.admission.authenticate',
      'toolgate.admission.quota',
      'toolgate.policy',
    ])
      assert.equal(one((s) => s.name === step, step).parentSpanId, message.spanId, step);
    const backend = one((s) => s.name === 'GET /me/balance', 'the backend client span');
    assert.equal(backend.kind, SPAN_KIND.client);
    assert.equal(backend.parentSpanId, message.spanId);
    assert.equal(backend.attributes['url.template'], '/me/balance');
    const served = one(
      (s) => s.service === 'toolgate-payments' && s.kind === SPAN_KIND.server,
      'the payment service server span',
    );
    assert.equal(served.parentSpanId, backend.spanId, 'the traceparent sent is the client span');
    assert.equal(served.name, 'GET /accounts/v1/me/balance');
    // The payment service's own work hangs below its server span: the use case, database statements below.
    const useCase = one((s) => s.name === 'payments.getAccountBalance', 'the use-case span');
    assert.equal(useCase.parentSpanId, served.spanId);
    assert.equal(useCase.kind, SPAN_KIND.internal);
    const below = new Set([served.spanId]);
    for (let grown = true; grown;) {
      grown = false;
      for (const s of spans)
        if (below.has(s.parentSpanId) && !below.has(s.spanId)) {
          below.add(s.spanId);
          grown = true;
        }
    }
    const work = spans.filter((s) => below.has(s.spanId) && s !== served);
    assert.ok(
      work.some((s) => s.attributes['db.system.name'] !== undefined),
      `database spans below the payment service's server span: ${JSON.stringify(work.map((s) => s.name))}`,
    );
    assert.ok(work.every((s) => s.service === 'toolgate-payments'));

    // Both forms were received: the gateway's protobuf, the payment service's JSON.
    assert.deepEqual([...new Set(receiver.requests.map((r) => r.protocol))].sort(), [
      'http/json',
      'http/protobuf',
    ]);
    // Nothing secret or personal was exported, in either form.
    for (const request of receiver.requests)
      for (const value of [key, token, iban, 'alice', secret, COLLECTOR_SECRET])
        assert.equal(
          request.body.includes(value),
          false,
          `${request.protocol} export holds a secret`,
        );
    // The resource of the gateway's spans: its service name and OTEL_RESOURCE_ATTRIBUTES.
    assert.equal(receiver.spans.find((s) => s.service === 'toolgate-gateway') !== undefined, true);

    // Sampler 0: a second gateway exporting to another receiver makes a call in a new trace.
    const unsampled = spawnCli(['gateway', '--json'], {
      ...env,
      OTEL_EXPORTER_OTLP_ENDPOINT: quiet.endpoint,
      OTEL_TRACES_SAMPLER: 'traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0',
      TOOLGATE_GATEWAY_PORT: '0',
    });
    children.push(unsampled);
    const quietUrl = (await waitForSummary(unsampled)).mcpUrl ?? '';
    const quietTrace = hexId(16);
    const second = await call(quietUrl, `00-${quietTrace}-${hexId(8)}-01`);
    assert.equal(second.status, 200);
    await second.json();
    await stop(unsampled);
    await stop(gateway);
    await stop(payments);
    assert.deepEqual(quiet.requests, [], 'the gateway at sampler 0 exported nothing');
    assert.deepEqual(
      receiver.spans.filter((s) => s.traceId === quietTrace),
      [],
      'the payment service did not record the unsampled call (parent-based)',
    );

    // Logs: the startup line says tracing is on (endpoint, protocol, sampler; no credential), and the
    // call's access line carries its trace id.
    const lines = gateway.output.stdout
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const startup = lines.find((l) => l.msg === 'tracing on');
    assert.ok(startup, gateway.output.stdout);
    assert.equal(startup.endpoint, `${receiver.endpoint}/v1/traces`);
    assert.equal(startup.protocol, 'http/protobuf');
    assert.equal(startup.sampler, 'parentbased_always_on');
    assert.equal(gateway.output.stdout.includes(COLLECTOR_SECRET), false);
    assert.ok(
      lines.some((l) => l.trace_id === traceId && l.span_id === http.spanId),
      'a log line of the call carries its trace_id',
    );
  } finally {
    await receiver.close();
    await quiet.close();
  }
});
