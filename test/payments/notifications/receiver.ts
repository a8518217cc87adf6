// A local webhook receiver for the notification tests: a real HTTP server on a bound loopback port that
// answers each request as scripted (status code, or "hang": never answer, so the sender times out),
// records what it got and lets a test wait for the n-th request (no sleeps).
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHmac, timingSafeEqual } from 'node:crypto';

export type Answer = number | 'hang';

export interface Received {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

export interface Receiver {
  readonly url: string;
  readonly received: Received[];
  /** Answers of the next requests, in order; afterwards `fallback`. */
  script(...answers: Answer[]): void;
  fallback: Answer;
  /** Resolves when `count` requests have arrived. */
  waitFor(count: number): Promise<void>;
  /** In-flight requests per event id right now, and the most ever seen at once for any event. */
  readonly maxConcurrentPerEvent: number;
  close(): Promise<void>;
}

export async function startReceiver(path = '/hooks/toolgate'): Promise<Receiver> {
  const received: Received[] = [];
  const queue: Answer[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const hanging: ServerResponse[] = [];
  const inFlight = new Map<string, number>();
  let maxConcurrent = 0;
  const state = { fallback: 200 as Answer };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const eventId = String(req.headers['toolgate-event-id']);
      const now = (inFlight.get(eventId) ?? 0) + 1;
      inFlight.set(eventId, now);
      maxConcurrent = Math.max(maxConcurrent, now);
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      for (const w of waiters.filter((w) => received.length >= w.count)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
      const answer = queue.shift() ?? state.fallback;
      if (answer === 'hang') {
        hanging.push(res);
        return;
      }
      inFlight.set(eventId, (inFlight.get(eventId) ?? 1) - 1);
      res.writeHead(answer, { 'content-type': 'text/plain' }).end(`answer ${answer}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    received,
    script: (...answers) => queue.push(...answers),
    get fallback() {
      return state.fallback;
    },
    set fallback(a: Answer) {
      state.fallback = a;
    },
    waitFor: (count) =>
      received.length >= count
        ? Promise.resolve()
        : new Promise<void>((resolve) => waiters.push({ count, resolve })),
    get maxConcurrentPerEvent() {
      return maxConcurrent;
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * What a receiver does (docs/payments-notifications.md, "Verifying a notification"): recompute the
 * HMAC-SHA256 of "<Toolgate-Timestamp>.<raw body>" under the shared secret, compare in constant time with
 * the v1= value of Toolgate-Signature, and refuse timestamps too far from its own clock.
 */
export function verifySignature(
  secret: string,
  headers: IncomingHttpHeaders,
  rawBody: string,
  nowSeconds: number,
  toleranceSeconds = 300,
): boolean {
  const timestamp = Number(headers['toolgate-timestamp']);
  const signature = String(headers['toolgate-signature'] ?? '');
  if (!Number.isInteger(timestamp) || Math.abs(nowSeconds - timestamp) > toleranceSeconds)
    return false;
  const expected = Buffer.from(
    `v1=${createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex')}`,
  );
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
