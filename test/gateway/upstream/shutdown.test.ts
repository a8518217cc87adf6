// Shutdown is bounded by the grace period even while tool calls wait on a backend that
// never answers. A real gateway service on port 0 in front of the fixture backend (node:http, port 0), with
// upstream timeouts of 60 s so that waiting for them could not pass for a bounded shutdown.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../../src/config/load.js';
import { openGatewayService } from '../../../src/gateway/service.js';
import { createLogger } from '../../../src/shared/log/logger.js';
import type { Service } from '../../../src/shared/service.js';
import { LogCapture } from '../../helpers/capture.js';
import { startFixtureBackend, type FixtureBackend } from '../support/fixture-backend.js';
import { MCP_HEADERS, fixtureBackendConfig, issueSubscriptionKey } from '../support/gateway.js';

const UPSTREAM_TIMEOUT_MS = 60000;
const GRACE_MS = 300;
/** Far above graceMs + 1 s, far below the upstream timeout: a bound, not a measurement. */
const BOUND_MS = 5000;

let dir: string;
let backend: FixtureBackend;
let service: Service;
let base: string;
let key: string;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'toolgate-shutdown-'));
  backend = await startFixtureBackend();
  const config = loadConfig({
    env: {},
    overrides: {
      dataDir: dir,
      logging: { level: 'warn' },
      gateway: {
        host: '127.0.0.1',
        port: 0,
        backends: [
          fixtureBackendConfig(backend.baseUrl, {
            timeouts: {
              connectMs: 1000,
              headersMs: UPSTREAM_TIMEOUT_MS,
              totalMs: UPSTREAM_TIMEOUT_MS,
            },
          }),
        ],
      },
    },
  });
  const { logger } = createLogger({ level: 'silent', destination: new LogCapture() });
  key = await issueSubscriptionKey(config);
  service = await openGatewayService(config, logger);
  base = await service.listen();
});

after(async () => {
  await backend.close(); // also releases the upstream call if the gateway did not
  await service.close(0);
  rmSync(dir, { recursive: true, force: true });
});

/** One tools/call over a real connection; resolves to the response text or the connection error. */
function callSlowTool(): Promise<{ status: number; body: string } | Error> {
  const payload = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'slowOperation', arguments: { delayMs: UPSTREAM_TIMEOUT_MS } },
  });
  return new Promise((resolve) => {
    const req = request(
      `${base}/mcp`,
      {
        method: 'POST',
        agent: false,
        headers: {
          ...MCP_HEADERS,
          'mcp-protocol-version': '2025-11-25',
          'ocp-apim-subscription-key': key,
        },
      },
      (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        res.on('error', resolve);
      },
    );
    req.on('error', resolve);
    req.end(payload);
  });
}

/** Polls until the backend has the call (no guessed sleep decides when the call is in flight). */
async function untilBackendHasRequests(count: number): Promise<void> {
  while (backend.requests.length < count) await new Promise((r) => setTimeout(r, 5));
}

function within<T>(promise: Promise<T>, ms: number): Promise<T | 'bound exceeded'> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<'bound exceeded'>((resolve) => {
    timer = setTimeout(() => resolve('bound exceeded'), ms);
  });
  return Promise.race([promise, bound]).finally(() => clearTimeout(timer));
}

test('service.close(graceMs) finishes within the bound while a tool call waits on a backend that never answers; the caller gets an error or a cut connection', async () => {
  const inFlight = callSlowTool();
  await untilBackendHasRequests(1);

  const outcome = await within(
    service.close(GRACE_MS).then(() => 'closed' as const),
    BOUND_MS,
  );
  assert.equal(outcome, 'closed', `shutdown took longer than ${BOUND_MS} ms`);

  // The caller was not left hanging: its connection was cut, or it got an error answer.
  const answer = await inFlight;
  if (!(answer instanceof Error)) {
    assert.match(answer.body, /"isError":true|"error"/, answer.body);
  }
});
