// Issue 25: "`npm start` ships a demo rule set: payments above 1,000 EUR need the user's own confirmation;
// above 10,000 EUR a second person with the role `payments-approver`; every user has a daily budget of
// 25,000 EUR." The configuration `toolgate start` builds (withDemoWiring) is compiled as the gateway
// compiles it, and the gateway built from it carries the live governor.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../../src/config/load.js';
import type { FrozenConfig } from '../../../src/config/schema.js';
import { planDemo, withDemoWiring } from '../../../src/cli/demo.js';
import { DEMO_RATES } from '../../../src/cli/demo-policies.js';
import type { GovernedCall, Governor } from '../../../src/gateway/governance/contracts.js';
import { convertMoney } from '../../../src/gateway/governance/money.js';
import { LiveGovernor } from '../../../src/gateway/governance/policy/live-governor.js';
import { createLogger } from '../../../src/shared/log/logger.js';
import { LogCapture } from '../../helpers/capture.js';
import { startTestGateway } from '../support/gateway.js';
import { fixtureBackendConfig } from '../support/gateway.js';

const { logger } = createLogger({ level: 'silent', destination: new LogCapture() });

function payment(config: FrozenConfig, amount: string, currency = 'EUR'): GovernedCall {
  const money = convertMoney(amount, currency, config.gateway.governance);
  if ('error' in money) assert.fail(money.error);
  return {
    callId: 'demo',
    tool: {
      name: 'createPayment',
      backend: 'payment-order',
      securityClass: 'user-scoped',
      annotations: {},
    },
    arguments: {},
    argumentsHash: '0'.repeat(64),
    caller: {
      application: 'demo-agent',
      subscription: 's',
      environment: 'development',
      subject: 'alice',
      claims: {},
      scopes: [],
    },
    at: new Date(),
    money,
  };
}

describe('the demo rule set of npm start (issue 25)', () => {
  let config: FrozenConfig;
  let governor: Governor;

  before(async () => {
    const loaded = loadConfig({
      env: {},
      overrides: { dataDir: mkdtempSync(join(tmpdir(), 'toolgate-demo-rules-')) },
    });
    assert.equal(planDemo(loaded).wire, true, 'the default configuration is wired as the demo');
    config = await withDemoWiring(loaded);
    governor = new LiveGovernor({
      source: { latestVersion: () => Promise.resolve(0), get: () => Promise.resolve(undefined) },
      governance: config.gateway.governance,
      configured: config.gateway.policies,
      logger,
    }).current();
  });

  test('500 EUR is allowed, with the daily budget of 25,000 EUR per user', () => {
    const decision = governor.decide(payment(config, '500.00'));
    assert.equal(decision.effect, 'allow');
    assert.deepEqual(decision.budgets, [
      {
        ruleId: 'demo-daily-budget',
        scope: 'user',
        period: 'day',
        limitMinor: 2_500_000,
        currency: 'EUR',
      },
    ]);
    assert.equal(governor.decide(payment(config, '1000.00')).effect, 'allow', '"above 1,000"');
  });

  test('1,500 EUR needs the user’s own confirmation', () => {
    const decision = governor.decide(payment(config, '1500.00'));
    assert.deepEqual([decision.effect, decision.ruleId], ['confirm', 'demo-confirm-over-1000']);
    assert.equal(decision.message, 'Payments above 1,000 EUR need your confirmation.');
    assert.equal(decision.budgets.length, 1);
  });

  test('15,000 EUR needs a second person with the role payments-approver', () => {
    const decision = governor.decide(payment(config, '15000.00'));
    assert.deepEqual(
      [decision.effect, decision.ruleId, decision.approverRole],
      ['approve', 'demo-approve-over-10000', 'payments-approver'],
    );
    assert.equal(decision.budgets[0]?.limitMinor, 2_500_000);
  });

  test('sample rates for USD, GBP and CHF convert into EUR (sample data)', () => {
    assert.deepEqual(Object.keys(DEMO_RATES).sort(), ['CHF', 'GBP', 'USD']);
    assert.deepEqual(config.gateway.governance.rates, DEMO_RATES);
    // 1,200 USD = 1,032 EUR: confirmation; 1,100 USD = 946 EUR: allowed.
    assert.equal(governor.decide(payment(config, '1200.00', 'USD')).effect, 'confirm');
    assert.equal(governor.decide(payment(config, '1100.00', 'USD')).effect, 'allow');
  });

  test('a configuration with its own rules or rates keeps them', async () => {
    const own = [{ id: 'mine', when: 'false', effect: 'deny' }];
    const loaded = loadConfig({
      env: {},
      overrides: {
        dataDir: mkdtempSync(join(tmpdir(), 'toolgate-demo-rules-')),
        gateway: { policies: own, governance: { rates: { USD: '0.9' } } },
      },
    });
    const wired = await withDemoWiring(loaded);
    assert.deepEqual(wired.gateway.policies, own);
    assert.deepEqual(wired.gateway.governance.rates, { USD: '0.9' });
  });
});

describe('the gateway opens its live governor at startup (issue 25)', () => {
  let started: Awaited<ReturnType<typeof startTestGateway>> | undefined;
  after(async () => {
    await started?.close();
  });

  test('the gateway carries the governor of its configured rules', async () => {
    started = await startTestGateway(
      {
        backends: [fixtureBackendConfig('http://127.0.0.1:9')],
        policies: [{ id: 'deny-all', when: 'true', effect: 'deny' }],
      },
      undefined,
      { logLevel: 'silent' },
    );
    const governor = started.app.governor?.current();
    assert.equal(governor?.version, 0);
    assert.equal(governor?.empty, false);
  });

  test('rules that do not compile stop the gateway, naming the rule', async () => {
    await assert.rejects(
      startTestGateway(
        {
          backends: [fixtureBackendConfig('http://127.0.0.1:9')],
          policies: [{ id: 'bad', when: 'args.x +', effect: 'deny' }],
        },
        undefined,
        { logLevel: 'silent' },
      ),
      /gateway\.policies\.0\.when \(bad\): Unexpected token/,
    );
  });
});
