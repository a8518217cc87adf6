// The governed call path over MCP (issue 25 "Governed actions"), at the protocol level: raw JSON-RPC over
// HTTP (fastify inject) to the real endpoint, call path, requestState signer and audit chain, in front of
// the fixture backend, with doubles of the policy, consent and budget services (their own modules are
// tested where they are built).
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startFixtureBackend, type FixtureBackend } from '../support/fixture-backend.js';
import {
  MCP_HEADERS,
  fixtureBackendConfig,
  startTestGateway,
  type TestGateway,
} from '../support/gateway.js';
import { AuditLog } from '../../../src/gateway/admin/audit-log.js';
import { createServer } from 'node:net';
import { FakeConsent, FakeGovernor, FakeLedger, fakeConvert, type Rule } from './doubles.js';

const MONEY = { amount: '/body/amount/value', currency: '/body/amount/currency', reference: '/id' };
const OVER_1000: Rule = {
  id: 'confirm-over-1000',
  effect: 'confirm',
  when: (c) => (c.money?.baseMinor ?? 0) > 100_000,
  message: 'Payments above 1,000 EUR need your confirmation',
};
const NO_CANCEL: Rule = {
  id: 'no-cancel',
  effect: 'deny',
  when: (c) => c.tool.name === 'cancelPayment',
  message: 'Agents may not cancel payments.',
};
const DAILY: Rule = {
  id: 'daily-budget',
  effect: 'budget',
  when: (c) => c.money !== undefined,
  limit: { scope: 'subscription', period: 'day', limitMinor: 500_000, currency: 'EUR' },
};

/** A port nothing listens on (bound, then closed: D-004). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

let backend: FixtureBackend;
let gw: TestGateway;
const governor = new FakeGovernor([]);
let consent: FakeConsent;
let ledger: FakeLedger;

before(async () => {
  backend = await startFixtureBackend();
  gw = await startTestGateway(
    {
      backends: [
        fixtureBackendConfig(backend.baseUrl, { tools: { createPayment: { money: MONEY } } }),
        {
          name: 'down',
          baseUrl: `http://127.0.0.1:${await closedPort()}/v1`,
          openapi: { file: 'test/fixtures/openapi/fixture-backend.yaml' },
          approve: ['getPayment'],
        },
      ],
      mcp: { requestStateSecret: 'a-request-state-secret-of-32-chars!!' },
    },
    undefined,
    {
      governance: () => ({
        governor,
        // Delegates, so each test can start from fresh approvals and budgets.
        consent: {
          request: (call, decision) => consent.request(call, decision),
          redeem: (binding, id) => consent.redeem(binding, id),
        },
        ledger: {
          reserve: (call, limits) => ledger.reserve(call, limits),
          release: (call, reservation) => ledger.release(call, reservation),
        },
        convert: fakeConvert,
      }),
    },
  );
});
after(async () => {
  await gw.close();
  await backend.close();
});
beforeEach(() => {
  consent = new FakeConsent();
  ledger = new FakeLedger();
  governor.replace([OVER_1000, NO_CANCEL, DAILY]);
});

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON-RPC bodies

async function post(params: Json, headers: Record<string, string>): Promise<Json> {
  const r = await gw.app.inject({
    method: 'POST',
    url: '/mcp',
    headers: { ...MCP_HEADERS, ...headers },
    payload: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params }),
  });
  assert.equal(r.statusCode, 200, r.body);
  return JSON.parse(r.body) as Json;
}

const legacy = (name: string, args: Json, version = '2025-06-18') =>
  post({ name, arguments: args }, { 'mcp-protocol-version': version });

const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { url: {} } },
};
const modern = (name: string, args: Json, extra: Json = {}, meta: Json = MODERN_META) =>
  post(
    { name, arguments: args, _meta: meta, ...extra },
    { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': name },
  );

const payment = (value: string, payee = 'Ada') => ({
  body: { amount: { value, currency: 'EUR' }, payee },
});
const backendCalls = () => backend.requests.filter((r) => r.url === '/api/v1/payments').length;
const text = (body: Json) => String(body.result.content[0].text);

describe('issue 25: the governed step in tools/call', () => {
  test('no rule in force: the call goes straight to the backend, nothing is recorded', async () => {
    governor.replace([]);
    const before = backendCalls();
    const r = await legacy('createPayment', payment('5000.00'));
    assert.equal(r.result.isError, undefined, JSON.stringify(r));
    assert.equal(backendCalls(), before + 1);
    assert.equal(consent.requests, 0);
  });

  test('a call no rule matches goes on; a budget counts its amount (issue 25: money budgets)', async () => {
    const r = await legacy('createPayment', payment('10.00'));
    assert.equal(r.result.isError, undefined, JSON.stringify(r));
    assert.equal(ledger.spent.get('daily-budget'), 1000);
  });

  test('deny: a tool error with the rule message; the backend is not called', async () => {
    const before = backend.requests.length;
    const r = await legacy('cancelPayment', { paymentId: 'PO-1' });
    assert.equal(r.result.isError, true);
    assert.match(
      text(r),
      /Agents may not cancel payments\. \(rule no-cancel; the backend was not called\)/,
    );
    assert.equal(backend.requests.length, before);
  });

  test('a money tool whose amount cannot be converted is refused, not let through', async () => {
    const r = await legacy('createPayment', {
      body: { amount: { value: '10.00', currency: 'CHF' }, payee: 'Ada' },
    });
    assert.equal(r.result.isError, true);
    assert.match(text(r), /cannot be governed: no rate for CHF/);
  });

  test('budget refused: which budget, how much remains and when it resets, in text and structuredContent', async () => {
    ledger.spent.set('daily-budget', 450_000);
    const before = backendCalls();
    const r = await legacy('createPayment', payment('600.00'));
    assert.equal(r.result.isError, true);
    assert.match(
      text(r),
      /daily budget "daily-budget" of 5000\.00 EUR: 500\.00 EUR remain until it resets at 2026-11-27T00:00:00\.000Z/,
    );
    assert.deepEqual(r.result.structuredContent.budget, {
      rule: 'daily-budget',
      scope: 'subscription',
      period: 'day',
      currency: 'EUR',
      limit: '5000.00',
      remaining: '500.00',
      resetsAt: '2026-11-27T00:00:00.000Z',
    });
    assert.equal(backendCalls(), before);
  });

  test('the reservation is released when the backend refuses the call (non-2xx)', async () => {
    governor.replace([
      {
        id: 'count-reads',
        effect: 'budget',
        when: (c) => c.tool.name === 'getPayment',
        limit: { scope: 'user', period: 'day', limitMinor: 10, currency: 'EUR' },
      },
    ]);
    const r = await legacy('getPayment', { paymentId: 'missing' });
    assert.equal(r.result.isError, true);
    assert.equal(ledger.released, 1);
    const ok = await legacy('getPayment', { paymentId: 'PO-1' });
    assert.equal(ok.result.isError, undefined);
    assert.equal(ledger.released, 1, 'a 2xx keeps its reservation');
  });

  test('a backend never reached (nothing sent) releases the reservation; a timeout, after which the call may have run, keeps it', async () => {
    governor.replace([
      {
        id: 'count-calls',
        effect: 'budget',
        when: () => true,
        limit: { scope: 'user', period: 'day', limitMinor: 10, currency: 'EUR' },
      },
    ]);
    const down = await legacy('down__getPayment', { paymentId: 'PO-1' });
    assert.equal(down.result.isError, true);
    assert.match(text(down), /Nothing was sent/);
    assert.equal(ledger.released, 1);
    const slow = await legacy('slowOperation', { delayMs: 3000 });
    assert.equal(slow.result.isError, true);
    assert.match(text(slow), /may or may not have been carried out/);
    assert.equal(ledger.released, 1, 'kept after a timeout');
  });
});

describe('issue 25: consent for clients without URL elicitation (the fallback result)', () => {
  test('confirm: a tool error saying where to approve and to retry, with id, URL and expiry in structuredContent and _meta; then the same call succeeds once approved', async () => {
    const before = backendCalls();
    const first = await legacy('createPayment', payment('1500.00'));
    assert.equal(first.result.isError, true);
    const approval = first.result.structuredContent.approval;
    assert.equal(approval.status, 'pending');
    assert.match(approval.url, /\/portal\/approvals\//);
    assert.ok(Date.parse(approval.expiresAt) > Date.now());
    assert.deepEqual(first.result._meta['io.toolgate/approval'], approval);
    assert.match(
      text(first),
      new RegExp(
        `^Payments above 1,000 EUR need your confirmation: you must confirm it at ${approval.url} before ${approval.expiresAt}, then retry exactly the same call \\(approval ${approval.id}; the backend was not called\\)\\.$`,
      ),
    );
    assert.equal(backendCalls(), before);

    const pending = await legacy('createPayment', payment('1500.00'));
    assert.equal(pending.result.structuredContent.approval.id, approval.id, 'the same approval');
    assert.equal(consent.requests, 1);

    consent.decide(approval.id, 'approved');
    const done = await legacy('createPayment', payment('1500.00'));
    assert.equal(done.result.isError, undefined, JSON.stringify(done));
    assert.equal(done.result.structuredContent.id, 'PO-1');
    assert.equal(backendCalls(), before + 1);

    // The receipt is single-use: the same call again needs a new approval.
    const again = await legacy('createPayment', payment('1500.00'));
    assert.equal(again.result.isError, true);
    assert.notEqual(again.result.structuredContent.approval.id, approval.id);
    assert.equal(backendCalls(), before + 1);
  });

  test('a rejected approval is refused with the reason', async () => {
    const first = await legacy('createPayment', payment('2500.00'));
    consent.decide(first.result.structuredContent.approval.id, 'rejected');
    const r = await legacy('createPayment', payment('2500.00'));
    assert.equal(r.result.isError, true);
    assert.match(text(r), /The approval was rejected\. \(the backend was not called\)/);
    assert.equal(r.result.structuredContent.governance.reason, 'rejected');
  });

  test('2025-03-26 (no structuredContent): the approval is in _meta and the text', async () => {
    const r = await legacy('createPayment', payment('1500.00'), '2025-03-26');
    assert.equal(r.result.isError, true);
    assert.equal(r.result.structuredContent, undefined);
    assert.match(text(r), /\/portal\/approvals\//);
    assert.ok(r.result._meta['io.toolgate/approval'].id);
  });

  test('2026-07-28 without the elicitation URL capability gets the fallback result', async () => {
    const r = await modern(
      'createPayment',
      payment('1500.00'),
      {},
      {
        ...MODERN_META,
        'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
      },
    );
    assert.equal(r.result.resultType, 'complete');
    assert.equal(r.result.isError, true);
    assert.ok(r.result.structuredContent.approval.id);
  });
});

describe('issue 25: consent over MCP 2025-11-25 (URL elicitation required, -32042)', () => {
  test('a 2025-11-25 request declaring elicitation.url gets -32042 with the URL elicitation; after approval the same call succeeds', async () => {
    const caps = {
      'io.modelcontextprotocol/clientCapabilities': { elicitation: { url: {} } },
    };
    const send = () =>
      post(
        { name: 'createPayment', arguments: payment('1500.00'), _meta: caps },
        { 'mcp-protocol-version': '2025-11-25' },
      );
    const before = backendCalls();
    const first = await send();
    assert.equal(first.error.code, -32042);
    const [elicitation] = first.error.data.elicitations;
    assert.equal(elicitation.mode, 'url');
    assert.match(elicitation.url, /\/portal\/approvals\//);
    assert.equal(elicitation.elicitationId, first.error.data.approval.id);
    assert.match(elicitation.message, /you must confirm it at/);
    assert.equal(backendCalls(), before);
    consent.decide(elicitation.elicitationId, 'approved');
    const done = await send();
    assert.equal(done.result.isError, undefined, JSON.stringify(done));
    assert.equal(backendCalls(), before + 1);
  });
});

describe('issue 25: consent over MCP 2026-07-28 (input_required with a URL-mode elicitation and requestState)', () => {
  async function ask(value = '1500.00') {
    const r = await modern('createPayment', payment(value));
    assert.equal(r.result.resultType, 'input_required', JSON.stringify(r));
    return r.result as Json;
  }

  test('the round trip: input_required → approval on the page → retry with requestState completes the call', async () => {
    const before = backendCalls();
    const asked = await ask();
    const request = asked.inputRequests['toolgate-approval'];
    assert.equal(request.method, 'elicitation/create');
    assert.equal(request.params.mode, 'url');
    assert.match(request.params.url, /\/portal\/approvals\//);
    assert.match(request.params.message, /you must confirm it at http/);
    assert.match(asked.requestState, /^tg1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    assert.equal(backendCalls(), before, 'not sent to the backend');

    // Retried before anyone approved: asked again (same approval, same state).
    const retry = {
      requestState: asked.requestState,
      inputResponses: { 'toolgate-approval': { action: 'accept' } },
    };
    const waiting = await modern('createPayment', payment('1500.00'), retry);
    assert.equal(waiting.result.resultType, 'input_required');
    assert.equal(
      waiting.result._meta['io.toolgate/approval'].id,
      asked._meta['io.toolgate/approval'].id,
    );

    consent.decide(asked._meta['io.toolgate/approval'].id, 'approved');
    const done = await modern('createPayment', payment('1500.00'), retry);
    assert.equal(done.result.resultType, 'complete');
    assert.equal(done.result.isError, undefined, JSON.stringify(done));
    assert.equal(backendCalls(), before + 1);

    // Replayed: the receipt was used.
    const replay = await modern('createPayment', payment('1500.00'), retry);
    assert.equal(replay.result.isError, true);
    assert.match(replay.result.content[0].text, /already used/);
    assert.equal(backendCalls(), before + 1);
  });

  test('an altered requestState is refused', async () => {
    const asked = await ask();
    consent.decide(asked._meta['io.toolgate/approval'].id, 'approved');
    const [prefix, body, mac] = String(asked.requestState).split('.');
    const payload = JSON.parse(Buffer.from(String(body), 'base64url').toString('utf8'));
    payload.h = '0'.repeat(64);
    const forged = `${prefix}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${mac}`;
    const r = await modern('createPayment', payment('1500.00'), { requestState: forged });
    assert.equal(r.result.isError, true);
    assert.match(r.result.content[0].text, /not one this gateway issued, or it was altered/);
    assert.equal(r.result.structuredContent.governance.reason, 'signature');
  });

  test('a retry with other arguments is refused (the receipt is bound to the arguments hash)', async () => {
    const asked = await ask();
    consent.decide(asked._meta['io.toolgate/approval'].id, 'approved');
    const r = await modern('createPayment', payment('1500.00', 'Mallory'), {
      requestState: asked.requestState,
    });
    assert.equal(r.result.isError, true);
    assert.match(r.result.content[0].text, /approval was given for another call/);
    assert.equal(r.result.structuredContent.governance.reason, 'mismatch');
  });

  test('a rule change between request and retry is refused', async () => {
    const asked = await ask();
    consent.decide(asked._meta['io.toolgate/approval'].id, 'approved');
    governor.replace([OVER_1000, DAILY]);
    const r = await modern('createPayment', payment('1500.00'), {
      requestState: asked.requestState,
    });
    assert.equal(r.result.isError, true);
    assert.match(
      r.result.content[0].text,
      /rules changed between the request for approval \(version \d+\) and this retry/,
    );
    assert.equal(r.result.structuredContent.governance.reason, 'policy-changed');
  });

  test('an expired approval is refused', async () => {
    consent = new FakeConsent(-1_000); // approvals that expired as they were made
    const asked = await ask();
    const r = await modern('createPayment', payment('1500.00'), {
      requestState: asked.requestState,
    });
    assert.equal(r.result.isError, true);
    assert.match(r.result.content[0].text, /expired/);
    assert.equal(r.result.structuredContent.governance.reason, 'expired');
  });

  test('declined in the client: refused without redeeming', async () => {
    const asked = await ask();
    const r = await modern('createPayment', payment('1500.00'), {
      requestState: asked.requestState,
      inputResponses: { 'toolgate-approval': { action: 'decline' } },
    });
    assert.equal(r.result.isError, true);
    assert.match(r.result.content[0].text, /declined/);
  });
});

describe('issue 25: evidence', () => {
  test("every governed decision is in the audit chain; ?call= tells one call's whole story", async () => {
    const first = await legacy('createPayment', payment('1500.00'));
    const approval = first.result.structuredContent.approval;
    consent.decide(approval.id, 'approved', 'alice');
    const done = await legacy('createPayment', payment('1500.00'));
    assert.equal(done.result.isError, undefined);
    const audit = new AuditLog(gw.db);
    const requested = await audit.query({ action: 'governance.consent.requested', limit: 1 });
    const firstCall = String(requested[0]?.target.id);
    // The story of the call that asked: its decision and request, then the retry that redeemed the
    // receipt, up to the backend's answer.
    const story = await audit.query({ call: firstCall });
    assert.deepEqual(
      story.map((e) => e.action),
      [
        'governance.decision',
        'governance.consent.requested',
        'governance.consent.redeemed',
        'governance.budget.reserved',
        'governance.backend.answer',
      ],
    );
    const [decision, request, receipt, , answer] = story.map((e) => e.after as Json);
    assert.equal(decision?.rule, 'confirm-over-1000');
    assert.equal(decision?.effect, 'confirm');
    assert.deepEqual(decision?.money, {
      amount: '1500.00',
      currency: 'EUR',
      baseCurrency: 'EUR',
      baseMinor: 150000,
    });
    assert.equal(request?.approval, approval.id);
    assert.equal(receipt?.receipt, approval.id);
    assert.equal(receipt?.decidedBy, 'alice');
    assert.equal(answer?.status, 201);
    assert.equal(answer?.reference, 'PO-1');
    // The retry's own story starts with its own decision.
    const retry = await audit.query({ call: String(story[2]?.target.id) });
    assert.equal(retry[0]?.action, 'governance.decision');
    assert.equal(retry.length, 4);
    assert.deepEqual((await audit.verify()).ok, true);
  });
});
