#!/usr/bin/env node
// Payment service throughput: validatePayment and createPayment requests per second, the service
// pinned to one core (taskset -c 0 when available) in its own process, autocannon on the other.
// Usage: npm run build && node bench/payments/run.mjs [--duration 10] [--connections 20]
//        DATABASE_URL=postgres://… node bench/payments/run.mjs   (PostgreSQL; own schema, dropped)
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import pg from 'pg';
import { demoIbanFor } from '../../dist/src/payments/domain/demo-account.js';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const duration = arg('duration', 10);
const connections = arg('connections', 20);
const secret = 'bench-gateway-secret-0123456789';
const databaseUrl = process.env.DATABASE_URL || undefined;
const schema = `payments_bench_${process.pid}`;
const dir = mkdtempSync(join(tmpdir(), 'toolgate-bench-'));
const configFile = join(dir, 'config.json');
writeFileSync(
  configFile,
  JSON.stringify({
    dataDir: dir,
    logging: { level: 'error' },
    payments: {
      port: 0,
      identity: { sharedSecret: secret },
      ...(databaseUrl ? { database: { url: databaseUrl, schema } } : {}),
    },
  }),
);

const pinned = spawnSync('taskset', ['-c', '0', 'true']).status === 0;
const command = pinned ? 'taskset' : process.execPath;
const args = [
  ...(pinned ? ['-c', '0', process.execPath] : []),
  'bin/toolgate.js',
  'payments',
  '--config',
  configFile,
  '--json',
];
const child = spawn(command, args, {
  stdio: ['ignore', 'ignore', 'pipe'],
  env: { PATH: process.env.PATH },
});
const url = await new Promise((resolve, reject) => {
  let err = '';
  child.stderr.on('data', (c) => {
    err += c;
    const line = err.split('\n').find((l) => l.startsWith('{') && l.includes('paymentsUrl'));
    if (line) resolve(JSON.parse(line).paymentsUrl);
  });
  child.on('exit', (code) => reject(new Error(`service exited ${code}: ${err}`)));
});

// Every user pays from their own account (the demo account the service opens for them); each create is a
// new user's, so no user's ledger grows over the run (the balance check reads the user's payments).
const recordOf = (user) => ({
  payerAccountReference: {
    paymentInstructionAccount: { accountId: demoIbanFor(user), numberType: 'IBAN' },
  },
  payeeAccountReference: {
    paymentInstructionAccount: { accountId: 'GB29NWBK60161331926819', numberType: 'IBAN' },
  },
  payeeReference: {
    involvedParty: { partyName: 'Ada Lovelace', partyType: 'PERSON', address: { country: 'GB' } },
  },
  paymentInstruction: {
    amount: { instructedAmount: 125.5, instructedCurrency: 'EUR' },
    chargeBearer: 'SHAR',
  },
  paymentProcessingConfiguration: {
    localInstrument: 'INSTANT_CREDIT_TRANSFER',
    remittanceInfo: { type: 'UNSTRUCTURED', content: 'Invoice 42' },
  },
});
const body = JSON.stringify(recordOf('bench'));
const base = `${url}/payments/payment-order/v1/payments`;
const headers = {
  'content-type': 'application/json',
  'x-toolgate-gateway-key': secret,
  'x-user-id': 'bench',
};

/** A request of a new user, paying from their own account. */
const newUser = () => {
  const user = `bench-${randomUUID()}`;
  return { headers: { 'x-user-id': user }, body: JSON.stringify(recordOf(user)) };
};

async function run(title, path, expectStatus, perRequest) {
  const result = await autocannon({
    url: `${base}${path}`,
    method: 'POST',
    connections,
    duration,
    headers,
    body,
    ...(perRequest
      ? {
          requests: [
            {
              setupRequest: (req) => {
                const request = perRequest();
                return {
                  ...req,
                  body: request.body,
                  headers: { ...req.headers, ...request.headers },
                };
              },
            },
          ],
        }
      : {}),
  });
  const ok = result[`${expectStatus}`] ?? result[`${String(expectStatus)[0]}xx`];
  return {
    scenario: title,
    reqPerSec: Math.round(result.requests.average),
    p50ms: result.latency.p50,
    p99ms: result.latency.p99,
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    expected: ok,
  };
}

try {
  await run('warm-up', '/validate', 201); // JIT warm-up, not reported
  const rows = [
    await run('validatePayment', '/validate', 201),
    await run('createPayment', '', 201, newUser),
    await run('createPayment + Idempotent-Request-Key', '', 201, () => {
      const request = newUser();
      return {
        ...request,
        headers: { ...request.headers, 'idempotent-request-key': randomUUID() },
      };
    }),
  ];
  const store = databaseUrl ? 'postgresql' : 'sqlite';
  console.log(
    `# store=${store} pinnedToOneCore=${pinned} connections=${connections} duration=${duration}s node=${process.version}`,
  );
  console.table(rows);
} finally {
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  rmSync(dir, { recursive: true, force: true });
  if (databaseUrl) {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await client.end();
  }
}
