// Quotas hold across replicas: two gateway processes sharing one real Redis admit exactly 500 of 1,000
// concurrent requests for one user (gateway spec §Limits: 500 requests / 60 s per authenticated user).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignJWT, exportJWK, generateKeyPair } from 'jose';
import { Agent, request } from 'undici';
import { finished, runCli, spawnCli, waitForSummary } from '../helpers/process.js';
import { REDIS_URL, skipWithoutRedis, uniqueName } from '../helpers/infra.js';

test(
  'two gateways on one Redis admit exactly 500 of 1,000 concurrent requests for one user',
  { skip: skipWithoutRedis },
  async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'toolgate-2gw-'));
    const { publicKey, privateKey } = await generateKeyPair('ES256');
    const jwk = { ...(await exportJWK(publicKey)), kid: 'test-key', alg: 'ES256' };
    const configFile = join(dataDir, 'toolgate.json');
    writeFileSync(
      configFile,
      JSON.stringify({
        logging: { level: 'warn' },
        gateway: {
          auth: {
            devIdentityProvider: { enabled: false },
            jwt: {
              issuer: 'https://idp.example.test',
              audience: 'toolgate-e2e',
              staticKeys: [{ jwk }],
            },
          },
          rateLimit: {
            subscriptionDefault: { limit: 100000, windowSeconds: 60 },
            // A generous command timeout: this test is about exactness across replicas, not about the
            // fallback a loaded test machine could trigger (that path has its own tests).
            redis: { keyPrefix: `${uniqueName('tg2gw')}:`, commandTimeoutMs: 2000 },
          },
        },
      }),
    );
    const env = {
      TOOLGATE_DATA_DIR: dataDir,
      REDIS_URL: REDIS_URL ?? '',
      TOOLGATE_CONFIG: configFile,
    };
    const created = await runCli(
      ['keys', 'create', '--app', 'load', '--env', 'development', '--json'],
      env,
    );
    assert.equal(created.code, 0, created.stderr);
    const key = (JSON.parse(created.stdout) as { primaryKey: string }).primaryKey;
    const token = await new SignJWT({})
      .setProtectedHeader({ alg: 'ES256', kid: 'test-key' })
      .setIssuer('https://idp.example.test')
      .setAudience('toolgate-e2e')
      .setSubject('load-user')
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(privateKey);

    const gateways = [];
    for (let i = 0; i < 2; i++) {
      gateways.push(
        spawnCli(['gateway', '--json'], {
          ...env,
          TOOLGATE_GATEWAY_PORT: '0',
        }),
      );
    }
    const agent = new Agent({ connections: 64, pipelining: 1 });
    try {
      const urls: string[] = [];
      for (const gateway of gateways) urls.push((await waitForSummary(gateway)).mcpUrl as string);
      const headers = {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-06-18',
        'ocp-apim-subscription-key': key,
        authorization: `Bearer ${token}`,
      };
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
      const statuses = await Promise.all(
        Array.from({ length: 1000 }, async (_, i) => {
          const response = await request(urls[i % 2] ?? '', {
            method: 'POST',
            headers,
            body,
            dispatcher: agent,
          });
          await response.body.dump();
          return response.statusCode;
        }),
      );
      const admitted = statuses.filter((s) => s === 200).length;
      const limited = statuses.filter((s) => s === 429).length;
      assert.equal(
        admitted,
        500,
        `admitted ${admitted}, limited ${limited}, other ${1000 - admitted - limited}`,
      );
      assert.equal(limited, 500);
    } finally {
      await agent.close();
      for (const gateway of gateways) gateway.kill('SIGTERM');
      for (const gateway of gateways) {
        const result = await finished(gateway, 10000);
        assert.equal(result.code, 0, result.stderr.slice(-300));
      }
    }
  },
);
