// One pooled keep-alive HTTP client per backend (undici Pool): connect, headers and total timeouts, no
// redirects followed, a cap on the response size. Failures come back as values, never thrown.
import { performance } from 'node:perf_hooks';
import { Pool, errors, type Dispatcher } from 'undici';
import type { BackendConfig } from '../../config/gateway-mcp.js';
import type { BackendRequest } from './build-request.js';

export type BackendOutcome =
  | {
      readonly kind: 'response';
      readonly status: number;
      readonly contentType: string;
      readonly body: string;
      /**
       * The response's `ETag` and `Last-Modified` headers as received (absent when not sent): the
       * validators an agent needs for a conditional request (docs/decisions.md, D-306). No other response header is kept.
       */
      readonly etag?: string;
      readonly lastModified?: string;
    }
  | {
      readonly kind: 'failure';
      readonly reason: 'timeout' | 'unavailable' | 'too-large' | 'protocol' | 'shutdown';
      readonly message: string;
    };

type Settings = Readonly<Pick<BackendConfig, 'name' | 'maxResponseBytes' | 'connections'>> & {
  /** An OpenAPI backend's base URL (upstream MCP servers have their own client: gateway/federation). */
  readonly baseUrl: string;
  readonly timeouts: Readonly<BackendConfig['timeouts']>;
  readonly injectHeaders: Readonly<Record<string, string>>;
};

export class BackendClient {
  readonly name: string;
  /** The backend's host and port (a client span's server.address / server.port). */
  readonly server: { readonly address: string; readonly port: number };
  private readonly pool: Pool;
  private readonly basePath: string;

  constructor(private readonly settings: Settings) {
    const url = new URL(settings.baseUrl);
    this.name = settings.name;
    this.server = {
      address: url.hostname,
      port: url.port !== '' ? Number(url.port) : url.protocol === 'https:' ? 443 : 80,
    };
    this.basePath = url.pathname.replace(/\/+$/, '');
    this.pool = new Pool(url.origin, {
      connections: settings.connections,
      connectTimeout: settings.timeouts.connectMs,
      headersTimeout: settings.timeouts.headersMs,
      bodyTimeout: settings.timeouts.totalMs,
      keepAliveTimeout: 30000,
      pipelining: 1,
    });
  }

  get injectHeaders(): Readonly<Record<string, string>> {
    return this.settings.injectHeaders;
  }

  /**
   * Sends one request. Uses undici's handler-level `dispatch` API rather than `request`: the response body
   * is collected straight from the parser's chunks, without a stream object and an AbortSignal per call
   * (≈ 30 % less client CPU per call, bench/gateway/README.md). The total timeout and the size cap abort
   * the request through its controller.
   *
   * A request waits in the pool's queue while every connection is busy. It is never sent with too little
   * of its budget left to be answered: when the pool would start it with less than `startFloorMs(totalMs)`
   * remaining (or after its timer has fired), it is abandoned before a byte is written and ends as a
   * timeout that says nothing was sent. Checking the deadline there, not only the timer's flag, closes
   * the race where a busy connection is cut by its own request's timeout and the pool hands the freed
   * slot to a queued request whose timer is due a moment later (docs/decisions.md, D-061).
   */
  send(request: BackendRequest): Promise<BackendOutcome> {
    const { totalMs } = this.settings.timeouts;
    const max = this.settings.maxResponseBytes;
    const latestStart = performance.now() + totalMs - startFloorMs(totalMs);
    return new Promise<BackendOutcome>((resolve) => {
      let controller: Dispatcher.DispatchController | undefined;
      let started = false;
      let settled = false;
      let status = 0;
      let contentType = '';
      let validators: { etag?: string; lastModified?: string } = {};
      let size = 0;
      const chunks: Buffer[] = [];
      const finish = (outcome: BackendOutcome): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(outcome);
      };
      const stop = (outcome: BackendOutcome): void => {
        finish(outcome);
        controller?.abort(new GatewayAbort());
      };
      const timer = setTimeout(
        () => stop(started ? timedOut('total', this.settings.timeouts) : neverStarted(totalMs)),
        totalMs,
      );

      const options: Dispatcher.DispatchOptions = {
        method: request.method as Dispatcher.HttpMethod,
        path: this.basePath + request.path,
        headers: request.headers,
        body: request.body ?? null,
      };
      const handler: Dispatcher.DispatchHandler = {
        onRequestStart: (c) => {
          controller = c;
          if (!settled && performance.now() > latestStart) finish(neverStarted(totalMs));
          if (settled)
            c.abort(new GatewayAbort()); // out of time while queued: never send it
          else started = true;
        },
        onResponseStart: (_c, statusCode, headers) => {
          if (statusCode < 200) return; // 1xx informational: the real answer follows
          status = statusCode;
          const type = headers['content-type'];
          contentType = Array.isArray(type) ? (type[0] ?? '') : (type ?? '');
          validators = validatorsOf(headers);
          const declared = Number(headers['content-length']);
          if (Number.isFinite(declared) && declared > max) stop(tooLarge(max));
        },
        onResponseData: (_c, chunk) => {
          if (settled) return;
          size += chunk.length;
          if (size > max) stop(tooLarge(max));
          else chunks.push(chunk);
        },
        onResponseEnd: () => {
          const body =
            chunks.length === 1
              ? (chunks[0] as Buffer).toString('utf8')
              : Buffer.concat(chunks).toString('utf8');
          finish({ kind: 'response', status, contentType, body, ...validators });
        },
        // After the gateway's own abort (timeout, size cap) the outcome is already settled.
        onResponseError: (_c, error) => finish(classifyFailure(error, this.settings.timeouts)),
      };
      try {
        this.pool.dispatch(options, handler);
      } catch (error) {
        finish(classifyFailure(error, this.settings.timeouts));
      }
    });
  }

  /** Waits for outstanding calls to end, however long their timeouts allow (up to totalMs). */
  close(): Promise<void> {
    return this.pool.close();
  }

  /**
   * Ends the pool at once: outstanding and queued calls resolve as `shutdown` failures, sockets are cut.
   * For shutdown, where close() would wait for the upstream timeouts and overrun `shutdown.graceMs`.
   */
  destroy(): Promise<void> {
    return this.pool.destroy(new GatewayShutdown());
  }
}

/** The `ETag` and `Last-Modified` of a response, each only when sent once (a repeated one is ambiguous). */
function validatorsOf(headers: Record<string, string | string[] | undefined>): {
  etag?: string;
  lastModified?: string;
} {
  const out: { etag?: string; lastModified?: string } = {};
  const etag = headers.etag;
  if (typeof etag === 'string') out.etag = etag;
  const lastModified = headers['last-modified'];
  if (typeof lastModified === 'string') out.lastModified = lastModified;
  return out;
}

/** The reason the gateway gives undici when it abandons a request itself (timeout or size cap). */
class GatewayAbort extends Error {
  constructor() {
    super('abandoned by the gateway');
    this.name = 'GatewayAbort';
  }
}

/** The reason given to undici when the gateway ends the pool at shutdown (see destroy()). */
class GatewayShutdown extends Error {
  constructor() {
    super('the gateway is shutting down');
    this.name = 'GatewayShutdown';
  }
}

const NOTHING_SENT = 'Nothing was sent; try again later.';

/**
 * The least budget a queued request must still have when the pool would start it: a tenth of the total
 * timeout, at least 1 ms and at most 1 s. Less than that and the backend would most likely be cut off
 * mid-answer, leaving the caller unsure whether the operation ran; refusing to send is the safer failure.
 */
export function startFloorMs(totalMs: number): number {
  return Math.min(Math.max(totalMs / 10, 1), 1000);
}

/** A request that ran out of time in the pool's queue: no byte of it reached the backend. */
function neverStarted(totalMs: number): BackendOutcome {
  return {
    kind: 'failure',
    reason: 'timeout',
    message: `No connection to the backend came free in time to answer within ${totalMs} ms (total timeout). ${NOTHING_SENT}`,
  };
}

function tooLarge(max: number): BackendOutcome {
  return {
    kind: 'failure',
    reason: 'too-large',
    message: `The backend's response was larger than the gateway's limit of ${max} bytes.`,
  };
}

type Timeouts = Readonly<BackendConfig['timeouts']>;

const MAY_HAVE_RUN =
  'The operation may or may not have been carried out; check its state before retrying.';

/**
 * One message per timer, each naming the timer that fired and its own value: an operator reading
 * "within 15000 ms" after a 10 s wait would look for the wrong setting. Undici's body timeout is the
 * idle time between two chunks; it is set to totalMs, so the total timer normally fires first.
 */
function timedOut(timer: 'headers' | 'body' | 'total', timeouts: Timeouts): BackendOutcome {
  const message = {
    headers: `The backend did not send its response headers within ${timeouts.headersMs} ms (headers timeout).`,
    body: `The backend stopped sending its response for ${timeouts.totalMs} ms (body timeout).`,
    total: `The backend did not answer within ${timeouts.totalMs} ms (total timeout).`,
  }[timer];
  return { kind: 'failure', reason: 'timeout', message: `${message} ${MAY_HAVE_RUN}` };
}

function unavailable(message: string): BackendOutcome {
  return { kind: 'failure', reason: 'unavailable', message };
}

/** Maps what undici reports to an outcome the caller can act on (exported for its unit test). */
export function classifyFailure(error: unknown, timeouts: Timeouts): BackendOutcome {
  // Also a call made after destroy(): the pool refuses it as destroyed.
  if (error instanceof GatewayShutdown || error instanceof errors.ClientDestroyedError)
    return {
      kind: 'failure',
      reason: 'shutdown',
      message: `The gateway is shutting down and abandoned the call to the backend. ${MAY_HAVE_RUN}`,
    };
  if (error instanceof errors.HeadersTimeoutError) return timedOut('headers', timeouts);
  if (error instanceof errors.BodyTimeoutError) return timedOut('body', timeouts);
  if (error instanceof errors.ConnectTimeoutError)
    return unavailable(
      `The backend service could not be reached (no connection within ${timeouts.connectMs} ms, connect timeout). ${NOTHING_SENT}`,
    );
  const code = (error as { code?: unknown }).code;
  if (code === 'ECONNREFUSED')
    return unavailable(
      `The backend service is unavailable (it refused the connection). ${NOTHING_SENT}`,
    );
  if (code === 'ENOTFOUND' || code === 'EHOSTUNREACH')
    return unavailable(
      `The backend service could not be reached (its host name or address is not reachable). ${NOTHING_SENT}`,
    );
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET')
    return unavailable(
      'The connection to the backend service was lost before it answered. The operation may or may not have been carried out.',
    );
  return {
    kind: 'failure',
    reason: 'protocol',
    message: 'The call to the backend service failed before a response was received.',
  };
}
