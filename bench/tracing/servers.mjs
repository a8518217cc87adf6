// The processes of the tracing bench (run.mjs), each reporting { url } over IPC once listening, answering
// 'cpu' with its process.cpuUsage(), 'stats' with what it counted and 'stop' by exiting:
//   node servers.mjs backend
//   node servers.mjs receiver
//   node servers.mjs toolgate <off|sampled-0|sampled-100> <backendUrl> <key-file> <receiverUrl>
// backend: the test fixture backend (node:http; getPayment answers a small JSON payment). receiver: the
// test harness's OTLP/HTTP receiver (test/helpers/otlp-receiver.ts), counting the spans it decoded.
// toolgate: createGateway as the service builds it (in-memory database, warn logs through the redacting
// logger to /dev/null, the fixture as its only backend, a subscription key, quotas far above the run),
// with tracing set up as `toolgate gateway` sets it up (resolveTracing + startTracing): off (no
// OTLP endpoint), on with OTEL_TRACES_SAMPLER=traceidratio and ARG 0, or on with always_on, exporting
// OTLP/HTTP protobuf to the receiver.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setInterval } from 'node:timers';

const root = new URL('../..', import.meta.url).pathname;
const dist = (p) => join(root, 'dist', p);
const [role, mode, backendUrl, keyFile, receiverUrl] = process.argv.slice(2);

const SAMPLING = {
  off: undefined,
  'sampled-0': { OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '0' },
  'sampled-100': { OTEL_TRACES_SAMPLER: 'always_on' },
};

async function toolgate() {
  const { default: pino } = await import('pino');
  const { createLogger } = await import(dist('src/shared/log/logger.js'));
  const { configuredSecrets } = await import(dist('src/cli/secrets.js'));
  const { loadConfig } = await import(dist('src/config/load.js'));
  const { resolveTracing } = await import(dist('src/config/telemetry.js'));
  const { startTracing } = await import(dist('src/shared/telemetry/tracing.js'));
  const { createGateway } = await import(dist('src/gateway/create-gateway.js'));
  const { openSqlite } = await import(dist('src/shared/db/sqlite.js'));
  const { migrateGatewayDatabase } = await import(dist('src/gateway/database.js'));
  const { SubscriptionStore } = await import(dist('src/gateway/auth/subscriptions/store.js'));
  const { FIXTURE_DOCUMENT } = await import(dist('test/gateway/support/fixture-backend.js'));
  if (!(mode in SAMPLING)) throw new Error(`unknown mode ${mode}`);
  const quota = { limit: 1_000_000, windowSeconds: 60 };
  const config = loadConfig({
    env: {},
    overrides: {
      logging: { level: 'warn' },
      gateway: {
        backends: [
          {
            name: 'fixture',
            baseUrl: backendUrl,
            openapi: { file: FIXTURE_DOCUMENT },
            approve: 'all',
            connections: 64,
          },
        ],
        rateLimit: { anonymous: quota, user: quota, subscriptionDefault: quota, store: 'memory' },
        auth: { devIdentityProvider: { enabled: false } },
      },
    },
  });
  const { logger } = createLogger({
    level: 'warn',
    secrets: configuredSecrets(config),
    destination: pino.destination('/dev/null'),
  });
  const sampling = SAMPLING[mode];
  const env =
    sampling === undefined ? {} : { OTEL_EXPORTER_OTLP_ENDPOINT: receiverUrl, ...sampling };
  startTracing(resolveTracing(config.telemetry.tracing, env, 'toolgate-gateway'), logger, {
    serviceVersion: 'bench',
    environment: config.environment,
  });
  const db = openSqlite({ path: ':memory:' });
  await migrateGatewayDatabase(db);
  const issued = await new SubscriptionStore(db).create({
    application: 'bench-agent',
    environment: config.environment,
  });
  writeFileSync(keyFile, issued.primaryKey);
  const app = await createGateway({ config, logger, stores: { db } });
  return `${await app.listen({ port: 0, host: '127.0.0.1' })}/mcp`;
}

let url;
let stats = () => ({});
if (role === 'backend') {
  const { startFixtureBackend } = await import(dist('test/gateway/support/fixture-backend.js'));
  const backend = await startFixtureBackend('/api/v1');
  url = backend.baseUrl;
  // The fixture records every request; the bench has no use for them (memory stays flat).
  setInterval(() => backend.requests.splice(0), 1000).unref();
} else if (role === 'receiver') {
  const { startOtlpReceiver } = await import(dist('test/helpers/otlp-receiver.js'));
  const receiver = await startOtlpReceiver();
  url = receiver.endpoint;
  let spans = 0;
  setInterval(() => {
    spans += receiver.spans.splice(0).length;
    receiver.requests.splice(0);
  }, 200).unref();
  stats = () => ({ spans: spans + receiver.spans.length });
} else if (role === 'toolgate') url = await toolgate();
else throw new Error(`unknown role ${role}`);
process.send({ url });
process.on('message', (message) => {
  if (message === 'cpu') process.send({ cpu: process.cpuUsage() });
  if (message === 'stats') process.send({ stats: stats() });
  if (message === 'stop') process.exit(0);
});
