// A running service: an HTTP app plus the stores it owns. Built without listening (tests use inject()),
// started with listen(), stopped with close() which drains the HTTP side before closing stores.
import type { FastifyInstance, FastifyListenOptions } from 'fastify';
import type { PortReservation } from './http/port-reservation.js';

export interface Service {
  readonly name: string;
  readonly app: FastifyInstance;
  /**
   * Starts listening; resolves to the base URL actually bound. With a reservation it takes over that
   * already bound socket (see port-reservation.ts); otherwise port 0 gets a real port.
   */
  listen(reservation?: PortReservation): Promise<string>;
  /** Marks the service not-ready so load balancers stop sending traffic. */
  beginDrain(): void;
  /**
   * Stops accepting connections, lets in-flight requests finish (bounded by graceMs, after which
   * remaining connections are cut), then closes stores.
   */
  close(graceMs: number): Promise<void>;
}

export interface ServiceParts {
  readonly name: string;
  readonly app: FastifyInstance;
  readonly host: string;
  readonly port: number;
  /** Closed in order after the HTTP server has stopped. */
  readonly resources: ReadonlyArray<{ close(): Promise<void> | void }>;
}

export function assembleService(parts: ServiceParts): Service {
  let closing: Promise<void> | undefined;
  return {
    name: parts.name,
    app: parts.app,
    async listen(reservation) {
      // Node's server.listen() takes `handle` from an options object; fastify passes the object through.
      const options: FastifyListenOptions & { handle?: unknown } =
        reservation === undefined
          ? { host: parts.host, port: parts.port }
          : { host: parts.host, port: reservation.port, handle: reservation.handle };
      return parts.app.listen(options);
    },
    beginDrain() {
      parts.app.drain.draining = true;
    },
    close(graceMs: number) {
      closing ??= (async () => {
        parts.app.drain.draining = true;
        const window = holdIdleConnections(parts.app, Math.min(DRAIN_WINDOW_MS, graceMs));
        const timer = setTimeout(() => {
          parts.app.log.warn({ graceMs }, 'grace period over; closing remaining connections');
          parts.app.server.closeAllConnections();
        }, graceMs);
        timer.unref();
        try {
          await parts.app.close();
        } finally {
          window.end();
          clearTimeout(timer);
          for (const resource of parts.resources) {
            try {
              await resource.close();
            } catch (error) {
              parts.app.log.error({ err: error }, 'error while closing a resource');
            }
          }
        }
      })();
      return closing;
    },
  };
}

/** How long kept-alive idle connections stay open after shutdown begins (docs/decisions.md, D-013). */
const DRAIN_WINDOW_MS = 1000;

/**
 * Closing the listener also closes idle kept-alive connections at once (Node's server.close() and
 * fastify's `forceCloseConnections: 'idle'`). A client that sends its next request on such a connection in
 * that instant sees a reset, not an answer. For a short window the idle connections are left open instead:
 * a request arriving on one is answered 503 SHUTTING_DOWN with `Connection: close` (create-app.ts), and
 * when the window ends the connections still idle are closed as before.
 */
function holdIdleConnections(app: FastifyInstance, windowMs: number): { end(): void } {
  const server = app.server;
  // An own property shadows the prototype's method for the callers inside server.close().
  server.closeIdleConnections = () => undefined;
  const release = () => {
    if (!Object.hasOwn(server, 'closeIdleConnections')) return;
    delete (server as { closeIdleConnections?: unknown }).closeIdleConnections;
    server.closeIdleConnections();
  };
  const timer = setTimeout(release, windowMs);
  timer.unref();
  return {
    end() {
      clearTimeout(timer);
      release();
    },
  };
}
