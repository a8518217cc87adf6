// Metrics under `toolgate gateway --workers N`. Every worker keeps its own registry, and a scrape of
// /metrics lands on whichever worker node:cluster hands the connection to; served as they are, counters
// would jump between workers' values from one scrape to the next. So a worker answers /metrics with the
// sum over all workers: it asks the primary, the primary collects every worker's registry (prom-client's
// AggregatorRegistry, over the cluster's IPC channel) and sends back the aggregated text.
import cluster from 'node:cluster';
import { AggregatorRegistry, type Registry } from 'prom-client';

const REQUEST = 'toolgate:metrics-request';
const RESPONSE = 'toolgate:metrics-response';
/** How long a worker waits for the primary's aggregate (prom-client's own per-worker timeout is 5 s). */
const WAIT_MS = 6000;

interface MetricsRequest {
  readonly type: typeof REQUEST;
  readonly id: number;
}
interface MetricsResponse {
  readonly type: typeof RESPONSE;
  readonly id: number;
  readonly text?: string;
  readonly error?: string;
}

function isResponse(message: unknown): message is MetricsResponse {
  return (message as { type?: unknown } | null)?.type === RESPONSE;
}

/** True in a worker of `--workers N`: /metrics must come from the primary's aggregate. */
export function inClusterWorker(): boolean {
  return cluster.isWorker;
}

/** In a worker: lets the primary's aggregator read `registry` (prom-client answers its requests). */
export function shareWithPrimary(registry: Registry): void {
  new AggregatorRegistry(); // installs prom-client's worker-side listener
  AggregatorRegistry.setRegistries([registry]);
}

let nextId = 0;

/** In a worker: the metrics of every worker, aggregated by the primary. */
export function clusterMetricsText(): Promise<string> {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    const onMessage = (message: unknown) => {
      if (!isResponse(message) || message.id !== id) return;
      clearTimeout(timer);
      process.off('message', onMessage);
      if (message.text !== undefined) resolve(message.text);
      else reject(new Error(message.error ?? 'no metrics from the primary'));
    };
    const timer = setTimeout(() => {
      process.off('message', onMessage);
      reject(new Error(`the primary did not answer within ${WAIT_MS} ms`));
    }, WAIT_MS);
    process.on('message', onMessage);
    const request: MetricsRequest = { type: REQUEST, id };
    process.send?.(request);
  });
}

/** In the primary: answers workers' requests with the aggregate of every worker's registry. */
export function serveClusterMetrics(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker, message: unknown) => {
    if ((message as { type?: unknown } | null)?.type !== REQUEST) return;
    const { id } = message as MetricsRequest;
    aggregator.clusterMetrics().then(
      (text) => worker.send({ type: RESPONSE, id, text } satisfies MetricsResponse),
      (error: unknown) =>
        worker.send({
          type: RESPONSE,
          id,
          error: error instanceof Error ? error.message : String(error),
        } satisfies MetricsResponse),
    );
  });
}
