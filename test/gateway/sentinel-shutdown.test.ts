// docs/operations.md, "Shutdown": after SIGTERM a service closes its stores and exits with code 0. With a
// Sentinel URL (redis+sentinel://) the gateway's Redis client also holds the failover detector's connections
// to the sentinels; closing with QUIT alone left the process running after it logged "stopped" (found by the
// reference deployment's failure test, test/deploy/failover.scenario.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finished, spawnCli, waitForSummary } from '../helpers/process.js';
import { skipWithoutRedisServer, startSentinelSet } from '../helpers/redis-topology.js';

test(
  'a gateway on a Sentinel URL exits with code 0 soon after SIGTERM',
  { skip: skipWithoutRedisServer, timeout: 60_000 },
  async () => {
    const set = await startSentinelSet({ replicas: 1 });
    try {
      const gateway = spawnCli(['gateway', '--json'], {
        TOOLGATE_DATA_DIR: mkdtempSync(join(tmpdir(), 'toolgate-sentinel-stop-')),
        TOOLGATE_GATEWAY_PORT: '0',
        REDIS_URL: set.url,
      });
      await waitForSummary(gateway);
      gateway.kill('SIGTERM');
      // The grace period is 10 s; nothing is in flight, so the process has no reason to take it.
      const result = await finished(gateway, 8000);
      assert.equal(result.code, 0, result.stderr.slice(-500));
    } finally {
      await set.topology.stop();
    }
  },
);
