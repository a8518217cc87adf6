// toolgate_backend_circuit_state (issue 29, "circuit open" alert): read at scrape time from each upstream
// MCP server's breaker — 0 closed, 2 open after consecutive failures, 1 half-open once the cool-down ran out.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { Registry } from 'prom-client';
import { McpUpstreamClient } from '../../../src/gateway/federation/mcp-client.js';
import { circuitStateOf, createCircuitMetrics } from '../../../src/gateway/circuit-metrics.js';
import { freePort } from '../../helpers/free-port.js';
import { mcpBackend } from '../federation/support/upstream-backend.js';

const cleanups: (() => Promise<void>)[] = [];
after(async () => {
  for (const cleanup of cleanups) await cleanup();
});

async function gaugeLines(registry: Registry): Promise<string[]> {
  return (await registry.metrics())
    .split('\n')
    .filter((l) => l.startsWith('toolgate_backend_circuit_state{'));
}

test('the gauge follows the breaker of an upstream that is down: closed, open, half-open after the cool-down', async () => {
  const port = await freePort(); // nothing listens there
  let now = 0;
  const down = new McpUpstreamClient(mcpBackend('down', `http://127.0.0.1:${port}/mcp`), {
    breaker: { failureThreshold: 2, cooldownMs: 10_000 },
    now: () => now,
  });
  cleanups.push(() => down.close());
  const registry = new Registry();
  createCircuitMetrics(registry).watch(() => [down]);

  assert.deepEqual(await gaugeLines(registry), [
    'toolgate_backend_circuit_state{backend="down"} 0',
  ]);
  for (let i = 0; i < 2; i++) await down.server().catch(() => undefined);
  assert.equal(down.circuitState, 'open');
  assert.deepEqual(await gaugeLines(registry), [
    'toolgate_backend_circuit_state{backend="down"} 2',
  ]);
  now += 10_001;
  assert.deepEqual(
    await gaugeLines(registry),
    ['toolgate_backend_circuit_state{backend="down"} 1'],
    'due for its probe: half-open',
  );
  await down.server().catch(() => undefined); // the probe fails: open again
  assert.deepEqual(await gaugeLines(registry), [
    'toolgate_backend_circuit_state{backend="down"} 2',
  ]);
});

test('an upstream without a breaker state of its own is read from circuitOpen; no upstreams, no series', async () => {
  assert.equal(circuitStateOf({ circuitOpen: true }), 'open');
  assert.equal(circuitStateOf({ circuitOpen: false }), 'closed');
  assert.equal(circuitStateOf({ circuitOpen: false, circuitState: 'half-open' }), 'half-open');
  const registry = new Registry();
  createCircuitMetrics(registry);
  assert.deepEqual(await gaugeLines(registry), []);
});
