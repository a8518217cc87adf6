// Scale-out without sticky sessions: two gateway replicas sharing one database. A client initialises on
// one and calls tools on the other; an approval decision reaches both.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ApprovalRepository } from '../../../src/gateway/storage/approvals.js';
import { openSqlite } from '../../../src/shared/db/sqlite.js';
import type { Database } from '../../../src/shared/db/types.js';
import { startFixtureBackend, type FixtureBackend } from '../support/fixture-backend.js';
import {
  MCP_HEADERS,
  fixtureBackendConfig,
  OPEN_GATEKEEPER,
  startTestGateway,
  type TestGateway,
} from '../support/gateway.js';

let backend: FixtureBackend;
let db: Database;
let a: TestGateway;
let b: TestGateway;

before(async () => {
  backend = await startFixtureBackend();
  db = await openSqlite({ path: ':memory:' });
  const settings = {
    backends: [fixtureBackendConfig(backend.baseUrl)],
    mcp: { approvalRefreshMs: 0 },
  };
  a = await startTestGateway(settings, OPEN_GATEKEEPER, { db });
  b = await startTestGateway(settings, OPEN_GATEKEEPER, { db });
});
after(async () => {
  await a.close();
  await b.close();
  await db.close();
  await backend.close();
});

async function post(gw: TestGateway, payload: unknown) {
  const r = await gw.app.inject({
    method: 'POST',
    url: '/mcp',
    headers: { ...MCP_HEADERS, 'mcp-protocol-version': '2025-11-25' },
    payload: JSON.stringify(payload),
  });
  return JSON.parse(r.body) as { result?: Record<string, unknown>; error?: { code: number } };
}
const names = async (gw: TestGateway) =>
  (
    ((await post(gw, { jsonrpc: '2.0', id: 1, method: 'tools/list' })).result?.tools ?? []) as {
      name: string;
    }[]
  ).map((t) => t.name);

test('2025-11-25/basic/transports#session-management: no session needed — initialise on A, call on B', async () => {
  const init = await post(a, {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {} },
  });
  assert.equal(init.result?.protocolVersion, '2025-11-25');
  const call = await post(b, {
    jsonrpc: '2.0',
    id: 2,
    method: 'tools/call',
    params: { name: 'getPayment', arguments: { paymentId: 'P1' } },
  });
  assert.equal((call.result?.structuredContent as { id: string }).id, 'P1');
});

test('a stored revocation reaches every replica (no restart, no coordination)', async () => {
  assert.ok((await names(a)).includes('cancelPayment'));
  await new ApprovalRepository(db).set('cancelPayment', 'revoked', 'test');
  assert.equal((await names(a)).includes('cancelPayment'), false);
  assert.equal((await names(b)).includes('cancelPayment'), false);
  const call = await post(b, {
    jsonrpc: '2.0',
    id: 3,
    method: 'tools/call',
    params: { name: 'cancelPayment', arguments: { paymentId: 'P1' } },
  });
  assert.equal(call.error?.code, -32602);
  await new ApprovalRepository(db).set('cancelPayment', 'approved', 'test');
  assert.ok((await names(b)).includes('cancelPayment'));
});
