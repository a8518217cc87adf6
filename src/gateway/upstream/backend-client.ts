// One pooled keep-alive HTTP client per backend (undici Pool): connect, headers and total timeouts, no
// redirects followed, a cap on the response size. Failures come back as values, never thrown.
import type { Readable } from 'node:stream';
import { Pool, errors } from 'undici';
import type { BackendConfig } from '../../config/gateway-mcp.js';
import type { BackendRequest } from './build-request.js';

export type BackendOutcome =
  | {
      readonly kind: 'response';
      readonly status: number;
      readonly contentType: string;
      readonly body: string;
    }
  | {
      readonly kind: 'failure';
      readonly reason: 'timeout' | 'unavailable' | 'too-large' | 'protocol';
      readonly message: string;
    };

type Settings = Readonly<
  Pick<BackendConfig, 'name' | 'baseUrl' | 'maxResponseBytes' | 'connections'>
> & {
  readonly timeouts: Readonly<BackendConfig['timeouts']>;
  readonly injectHeaders: Readonly<Record<string, string>>;
};

export class BackendClient {
  readonly name: string;
  private readonly pool: Pool;
  private readonly basePath: string;

  constructor(private readonly settings: Settings) {
    const url = new URL(settings.baseUrl);
    this.name = settings.name;
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

  async send(request: BackendRequest): Promise<BackendOutcome> {
    const { totalMs } = this.settings.timeouts;
    // One plain timer per call: cheaper than AbortSignal.timeout on the hot path.
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), totalMs);
    const signal = controller.signal;
    try {
      const response = await this.pool.request({
        method: request.method as 'GET',
        path: this.basePath + request.path,
        headers: request.headers,
        body: request.body,
        signal,
      });
      const declared = Number(response.headers['content-length']);
      const max = this.settings.maxResponseBytes;
      if (Number.isFinite(declared) && declared > max) {
        response.body.destroy();
        return tooLarge(max);
      }
      const body = await readCapped(response.body, max);
      if (body === undefined) return tooLarge(max);
      const contentType = response.headers['content-type'];
      return {
        kind: 'response',
        status: response.statusCode,
        contentType: Array.isArray(contentType) ? (contentType[0] ?? '') : (contentType ?? ''),
        body,
      };
    } catch (error) {
      return classify(error, signal.aborted, this.settings.timeouts);
    } finally {
      clearTimeout(timer);
    }
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

/** Collects a response body (event-based: cheaper than for-await); undefined when it exceeds `max`. */
function readCapped(stream: Readable, max: number): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) {
        stream.destroy();
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    });
    stream.once('end', () =>
      resolve(
        chunks.length === 1
          ? (chunks[0] as Buffer).toString('utf8')
          : Buffer.concat(chunks).toString('utf8'),
      ),
    );
    stream.once('error', reject);
  });
}

function tooLarge(max: number): BackendOutcome {
  return {
    kind: 'failure',
    reason: 'too-large',
    message: `The backend's response was larger than the gateway's limit of ${max} bytes.`,
  };
}

function classify(
  error: unknown,
  aborted: boolean,
  timeouts: Readonly<BackendConfig['timeouts']>,
): BackendOutcome {
  if (
    aborted ||
    error instanceof errors.HeadersTimeoutError ||
    error instanceof errors.BodyTimeoutError
  ) {
    return {
      kind: 'failure',
      reason: 'timeout',
      message: `The backend did not answer within ${timeouts.totalMs} ms. The operation may or may not have been carried out; check its state before retrying.`,
    };
  }
  if (error instanceof errors.ConnectTimeoutError) {
    return {
      kind: 'failure',
      reason: 'unavailable',
      message: `The backend service could not be reached (no connection within ${timeouts.connectMs} ms). Nothing was sent; try again later.`,
    };
  }
  const code = (error as { code?: unknown }).code;
  if (
    code === 'ECONNREFUSED' ||
    code === 'ENOTFOUND' ||
    code === 'EHOSTUNREACH' ||
    code === 'ECONNRESET' ||
    code === 'UND_ERR_SOCKET'
  ) {
    return {
      kind: 'failure',
      reason: 'unavailable',
      message:
        code === 'ECONNRESET' || code === 'UND_ERR_SOCKET'
          ? 'The connection to the backend service was lost before it answered. The operation may or may not have been carried out.'
          : 'The backend service is unavailable (it refused the connection). Nothing was sent; try again later.',
    };
  }
  return {
    kind: 'failure',
    reason: 'protocol',
    message: 'The call to the backend service failed before a response was received.',
  };
}
