// The circuit state of each upstream MCP server's breaker (federation/mcp-client.ts: five consecutive
// unavailable or timed-out calls open it for 30 s), read at scrape time: nothing is recorded on the call
// path. Backends called over plain HTTP (upstream/backend-client.ts) have no breaker and no series.
import { Gauge, type Registry } from 'prom-client';
import type { UpstreamMcp } from './federation/contracts.js';

export type CircuitState = 'closed' | 'half-open' | 'open';

/** The gauge's value: 0 closed, 1 half-open, 2 open (the rate limiter's breaker gauge uses the same). */
export const CIRCUIT_VALUE: Readonly<Record<CircuitState, number>> = {
  closed: 0,
  'half-open': 1,
  open: 2,
};

/** Pure: an upstream's state, from its breaker when it reports one, else from `circuitOpen`. */
export function circuitStateOf(
  upstream: Pick<UpstreamMcp, 'circuitOpen' | 'circuitState'>,
): CircuitState {
  return upstream.circuitState ?? (upstream.circuitOpen ? 'open' : 'closed');
}

export interface CircuitMetrics {
  /** Where the upstreams are read at each scrape (the federation's clients, once opened). */
  watch(upstreams: () => Iterable<UpstreamMcp>): void;
}

export function createCircuitMetrics(registry: Registry): CircuitMetrics {
  let source: () => Iterable<UpstreamMcp> = () => [];
  new Gauge({
    name: 'toolgate_backend_circuit_state',
    help: 'Circuit breaker of an upstream MCP server backend: 0 closed, 1 half-open, 2 open',
    labelNames: ['backend'] as const,
    // Under --workers N every worker has its own breaker: the aggregate shows the worst.
    aggregator: 'max',
    registers: [registry],
    collect() {
      this.reset();
      for (const upstream of source())
        this.set({ backend: upstream.backend }, CIRCUIT_VALUE[circuitStateOf(upstream)]);
    },
  });
  return {
    watch(upstreams) {
      source = upstreams;
    },
  };
}
