// An acknowledged write survives kill -9: a real `toolgate payments` process creates a payment (201),
// is killed with SIGKILL, restarted on the same data directory, and the payment is read back.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { GATEWAY_SECRET, ownAccount, samplePayment, BASE } from './harness.js';
import { DATABASE_URL, dropSchema, skipWithoutPostgres, uniqueName } from '../helpers/infra.js';

function start(configFile: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    ['bin/toolgate.js', 'payments', '--config', configFile, '--json'],
    {
      cwd: process.cwd(),
      env: { PATH: process.env.PATH ?? '' },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  return new Promise((resolve, reject) => {
    let err = '';
    // Generous: on a loaded machine a cold start (build cache, migrations) can take many seconds. A start
    // that never reports is killed, so the file does not hang on a stray process.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no startup summary within 60 s: ${err}`));
    }, 60_000);
    child.stderr?.on('data', (chunk: Buffer) => {
      err += chunk.toString('utf8');
      for (const line of err.split('\n')) {
        if (!line.startsWith('{')) continue;
        try {
          const summary = JSON.parse(line) as { paymentsUrl?: string };
          if (summary.paymentsUrl) {
            clearTimeout(timer);
            resolve({ child, url: summary.paymentsUrl });
          }
        } catch {
          // partial line
        }
      }
    });
    child.on('exit', (code) => reject(new Error(`exited ${code}: ${err}`)));
  });
}

const headers = {
  'content-type': 'application/json',
  'x-toolgate-gateway-key': GATEWAY_SECRET,
  'x-user-id': 'durable',
};

for (const kind of ['sqlite', 'postgres'] as const) {
  test(
    `a created payment survives kill -9 and a restart (${kind})`,
    { skip: kind === 'postgres' ? skipWithoutPostgres : false },
    async () => {
      const schema = uniqueName('payments_kill');
      const dir = mkdtempSync(path.join(tmpdir(), 'toolgate-durability-'));
      const configFile = path.join(dir, 'config.json');
      writeFileSync(
        configFile,
        JSON.stringify({
          dataDir: dir,
          logging: { level: 'warn' },
          payments: {
            port: 0,
            identity: { sharedSecret: GATEWAY_SECRET },
            // This test reads the payment back unchanged: the execution engine must not move it.
            engine: { enabled: false },
            ...(kind === 'postgres' ? { database: { url: DATABASE_URL, schema } } : {}),
          },
        }),
      );
      try {
        const first = await start(configFile);
        const res = await request(`${first.url}${BASE}/payments`, {
          method: 'POST',
          headers,
          // A fresh service: the user pays from the demo account it opens for them.
          body: JSON.stringify(samplePayment({ payerAccountReference: ownAccount('durable') })),
        });
        const created = (await res.body.json()) as Record<string, Record<string, unknown>>;
        assert.equal(res.statusCode, 201);
        const id = String(created['paymentInstructionReference']?.['identification']);
        const exited = new Promise((r) => first.child.once('exit', r));
        first.child.kill('SIGKILL');
        await exited;

        const second = await start(configFile);
        try {
          const got = await request(`${second.url}${BASE}/payments/${id}`, { headers });
          assert.equal(got.statusCode, 200);
          assert.deepEqual(await got.body.json(), created);
        } finally {
          const done = new Promise((r) => second.child.once('exit', r));
          second.child.kill('SIGTERM');
          await done;
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
        if (kind === 'postgres') await dropSchema(schema);
      }
    },
  );
}
