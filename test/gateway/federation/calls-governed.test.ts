// Governance over upstream MCP tools (issue 28: "Everything an OpenAPI tool has applies unchanged: ... the
// audit, the governance rules"): the real pipeline (policy decision, consent, budgets, evidence) with the
// doubles of issue 25's services, in front of a scripted upstream. Money pointers read the call's
// arguments; the reference is read from the upstream's structuredContent; what the upstream answered
// decides whether a reservation is released (docs/decisions.md, D-255).
import { beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Governance } from '../../../src/gateway/governance/pipeline.js';
import { RequestStateSigner } from '../../../src/gateway/governance/request-state.js';
import { moneyKey } from '../../../src/gateway/governance/call.js';
import { UpstreamError } from '../../../src/gateway/federation/contracts.js';
import {
  FakeConsent,
  FakeGovernor,
  FakeLedger,
  fakeConvert,
  type Rule,
} from '../governance/doubles.js';
import {
  ScriptedUpstream,
  harness,
  mcpTool,
  textOf,
  type Script,
} from './support/calls-harness.js';

const pay = mcpTool({
  name: 'up_pay',
  mcp: { name: 'pay' },
  inputSchema: {
    type: 'object',
    properties: {
      amount: { type: 'string' },
      currency: { type: 'string' },
      to: { type: 'string' },
    },
    required: ['amount', 'currency', 'to'],
  },
});
const MONEY = { amount: '/amount', currency: '/currency', reference: '/paymentId' };
const CONFIRM: Rule = {
  id: 'confirm-over-100',
  effect: 'confirm',
  when: (c) => (c.money?.baseMinor ?? 0) > 10_000,
  message: 'Payments above 100 EUR need your confirmation',
};
const DENY_BOB: Rule = {
  id: 'no-bob',
  effect: 'deny',
  when: (c) => c.arguments.to === 'bob',
  message: 'Paying bob is not allowed.',
};
const BUDGET: Rule = {
  id: 'daily',
  effect: 'budget',
  when: (c) => c.money !== undefined,
  limit: { scope: 'subscription', period: 'day', limitMinor: 100_000, currency: 'EUR' },
};

let governor: FakeGovernor;
let consent: FakeConsent;
let ledger: FakeLedger;
let evidence: { action: string; details: Readonly<Record<string, unknown>> }[];

function governance(): Governance {
  return new Governance({
    governor,
    consent,
    ledger,
    convert: fakeConvert,
    evidence: {
      record: async (_callId, action, details) => {
        evidence.push({ action, details });
      },
    },
    signer: RequestStateSigner.fromSecrets('a-request-state-secret-of-32-chars!!', undefined),
    money: new Map([[moneyKey(pay), MONEY]]),
  });
}

const paid: Script = () => ({
  content: [{ type: 'text', text: '{"paymentId":"P-77","status":"ACCEPTED"}' }],
  structuredContent: { paymentId: 'P-77', status: 'ACCEPTED' },
});

function setup(script: Script, rules: readonly Rule[]) {
  governor = new FakeGovernor(rules);
  const upstream = new ScriptedUpstream('up', script);
  return { upstream, h: harness({ upstreams: [upstream], governance: governance() }) };
}

const call = (amount: string, to = 'alice') => ({
  name: 'up_pay',
  arguments: { amount, currency: 'EUR', to },
});

beforeEach(() => {
  consent = new FakeConsent();
  ledger = new FakeLedger();
  evidence = [];
});

describe('issue 25 rules over upstream MCP tools', () => {
  test('deny: a tool error naming the rule, and the upstream gets no call', async () => {
    const { upstream, h } = setup(paid, [DENY_BOB]);
    const result = await h.run(pay, call('5.00', 'bob'));
    assert.equal(result.isError, true);
    assert.match(
      textOf(result),
      /Paying bob is not allowed\. \(rule no-bob; the backend was not called\)/,
    );
    assert.equal(upstream.received.length, 0);
  });

  test('confirm: the money pointers read the arguments; consent first, the upstream only after the approval', async () => {
    const { upstream, h } = setup(paid, [CONFIRM]);
    const asked = await h.run(pay, call('250.00'));
    assert.equal(asked.isError, true);
    assert.match(
      textOf(asked),
      /Payments above 100 EUR need your confirmation: you must confirm it at/,
    );
    assert.equal(upstream.received.length, 0);
    const [approval] = [...consent.approvals.values()];
    assert.ok(approval);
    consent.decide(approval.id, 'approved');
    const done = await h.run(pay, call('250.00'));
    assert.equal(done.isError, undefined, JSON.stringify(done));
    assert.deepEqual(done.structuredContent, { paymentId: 'P-77', status: 'ACCEPTED' });
    assert.equal(upstream.received.length, 1);
    // A small payment matches no rule: no consent.
    await h.run(pay, call('5.00'));
    assert.equal(consent.requests, 1);
  });

  test("budget: reserved, then settled with the structuredContent as body (the reference is the upstream's)", async () => {
    const { h } = setup(paid, [BUDGET]);
    const result = await h.run(pay, call('40.00'));
    assert.equal(result.isError, undefined);
    assert.equal(ledger.spent.get('daily'), 4000);
    assert.equal(ledger.released, 0);
    const answer = evidence.find((e) => e.action === 'governance.backend.answer');
    assert.equal(answer?.details.status, 200);
    assert.equal(answer?.details.reference, 'P-77');
    assert.equal(answer?.details.released, false);
  });

  test('budget: a JSON-RPC error or refused credentials release the reservation (the tool did not run)', async () => {
    for (const error of [
      new UpstreamError('up', 'rpc', 'invalid', { code: -32602, message: 'bad amount' }),
      new UpstreamError('up', 'unauthorized', '401'),
      new UpstreamError('up', 'circuit_open', 'open'),
    ]) {
      evidence = [];
      const { h } = setup(() => error, [BUDGET]);
      const result = await h.run(pay, call('40.00'));
      assert.equal(result.isError, true);
      const answer = evidence.find((e) => e.action === 'governance.backend.answer');
      assert.equal(answer?.details.failure, error.reason);
      assert.equal(answer?.details.released, true, error.reason);
    }
    assert.equal(ledger.spent.get('daily'), 0);
    assert.equal(ledger.released, 3);
  });

  test('budget: a timeout, a lost connection or a tool error keeps the reservation (the tool may have run)', async () => {
    const timeout = setup(() => new UpstreamError('up', 'timeout', 'slow'), [BUDGET]);
    await timeout.h.run(pay, call('40.00'));
    const lost = setup(() => new UpstreamError('up', 'unavailable', 'connection lost'), [BUDGET]);
    await lost.h.run(pay, call('1.00'));
    const toolError = setup(
      () => ({ content: [{ type: 'text', text: 'bank offline' }], isError: true }),
      [BUDGET],
    );
    const result = await toolError.h.run(pay, call('10.00'));
    assert.deepEqual(result, { content: [{ type: 'text', text: 'bank offline' }], isError: true });
    assert.equal(ledger.released, 0);
    assert.equal(ledger.spent.get('daily'), 5100);
    assert.deepEqual(
      evidence
        .filter((e) => e.action === 'governance.backend.answer')
        .map((e) => e.details.failure),
      ['timeout', 'unavailable', 'tool_error'],
    );
  });

  test('a call that needs a sign-in first asks for no approval and reserves nothing', async () => {
    governor = new FakeGovernor([CONFIRM, BUDGET]);
    const upstream = new ScriptedUpstream('up', paid);
    const h = harness({
      upstreams: [upstream],
      governance: governance(),
      identity: async () => ({
        kind: 'sign-in',
        backend: 'up',
        url: 'http://127.0.0.1:8080/federation/sign-in/up?u=1',
        message: 'Sign in to up to let the agent act for you',
        elicitationId: 'e-1',
      }),
    });
    const result = await h.run(pay, call('250.00'));
    assert.equal(result.isError, true);
    assert.match(
      textOf(result),
      /Sign in at http:\/\/127\.0\.0\.1:8080\/federation\/sign-in\/up\?u=1/,
    );
    assert.equal(consent.requests, 0);
    assert.equal(ledger.spent.size, 0);
    assert.equal(upstream.received.length, 0);
  });
});
