// Issue 25, "Policies": rules are "applied on every replica within seconds without a restart, as the
// identity-provider settings are". Two live governors on one database stand for two replicas; each one's
// refresh timer is driven by the test (an injected scheduler), so nothing waits for time. SQLite, and
// PostgreSQL when DATABASE_URL is set.
import { parseGovernanceConfig } from '../../../src/config/gateway-governance.js';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { GovernedCall } from '../../../src/gateway/governance/contracts.js';
import { convertMoney } from '../../../src/gateway/governance/money.js';
import {
  LiveGovernor,
  PolicyConfigError,
  openLiveGovernor,
  type Scheduler,
} from '../../../src/gateway/governance/policy/live-governor.js';
import { PolicyService } from '../../../src/gateway/admin/policies.js';
import { createLogger } from '../../../src/shared/log/logger.js';
import { LogCapture } from '../../helpers/capture.js';
import { ADMIN, RecordingAuditSink } from '../admin/live-support.js';
import { DATABASE_TARGETS, type OpenedDatabase } from '../admin/support.js';

const governance = parseGovernanceConfig({ policyRefreshMs: 1000 });
const FILE_RULES = [
  { id: 'file-confirm', when: 'has(money.base) && money.base > 100', effect: 'confirm' as const },
];

/** A scheduler the test fires by hand; records the interval it was asked for. */
class ManualScheduler {
  ticks: (() => void)[] = [];
  intervals: number[] = [];
  stopped = 0;
  readonly schedule: Scheduler = (tick, ms) => {
    this.ticks.push(tick);
    this.intervals.push(ms);
    return () => {
      this.stopped += 1;
    };
  };
  fire(): void {
    for (const tick of this.ticks) tick();
  }
}

function paymentCall(amount: string): GovernedCall {
  const money = convertMoney(amount, 'EUR', governance);
  if ('error' in money) assert.fail(money.error);
  return {
    callId: 'c1',
    tool: {
      name: 'createPayment',
      backend: 'payments',
      securityClass: 'user-scoped',
      annotations: {},
    },
    arguments: {},
    argumentsHash: '0'.repeat(64),
    caller: {
      application: 'a',
      subscription: 's',
      environment: 'development',
      subject: 'alice',
      claims: {},
      scopes: [],
    },
    at: new Date('2026-11-26T10:00:00Z'),
    money,
  };
}

for (const target of DATABASE_TARGETS)
  describe(`live governor on two replicas (${target.name})`, { skip: target.skip }, () => {
    let opened: OpenedDatabase;
    const capture = new LogCapture();
    const { logger } = createLogger({ level: 'info', destination: capture });

    before(async () => {
      opened = await target.open();
    });
    after(async () => {
      await opened.close();
    });

    test('a PUT on one replica is in force on the other at its next refresh, without a restart', async () => {
      const timersA = new ManualScheduler();
      const timersB = new ManualScheduler();
      const open = (timers: ManualScheduler) =>
        openLiveGovernor({
          db: opened.db,
          governance,
          policies: FILE_RULES,
          logger,
          schedule: timers.schedule,
        });
      const replicaA = await open(timersA);
      const replicaB = await open(timersB);
      assert.deepEqual(
        timersB.intervals,
        [1000],
        'refreshes every gateway.governance.policyRefreshMs',
      );
      for (const replica of [replicaA, replicaB]) {
        assert.equal(replica.current().version, 0);
        assert.equal(replica.current().empty, false);
        assert.equal(replica.current().decide(paymentCall('150')).ruleId, 'file-confirm');
      }

      const service = new PolicyService({
        db: opened.db,
        audit: new RecordingAuditSink(),
        governance,
        configured: FILE_RULES,
        lookupTool: () => Promise.resolve(undefined),
      });
      await service.save(
        ADMIN,
        [{ id: 'deny-over-50', when: 'has(money.base) && money.base > 50', effect: 'deny' }],
        0,
      );
      assert.equal(replicaB.current().version, 0, 'not before its refresh');

      timersB.fire();
      await replicaB.refresh(); // the refresh the tick started (one at a time)
      assert.equal(replicaB.current().version, 1);
      const decision = replicaB.current().decide(paymentCall('60'));
      assert.deepEqual(
        [decision.effect, decision.ruleId, decision.policyVersion],
        ['deny', 'deny-over-50', 1],
      );

      // A stored empty set is in force too: the call path then skips governance (empty).
      await service.save(ADMIN, [], 1);
      timersA.fire();
      await replicaA.refresh();
      assert.equal(replicaA.current().version, 2);
      assert.equal(replicaA.current().empty, true);

      replicaA.close();
      replicaB.close();
      assert.equal(timersA.stopped + timersB.stopped, 2, 'close stops the refresh timer');
    });

    test('a stored set that cannot be compiled is logged and the replica keeps its rules', async () => {
      const timers = new ManualScheduler();
      const replica = await openLiveGovernor({
        db: opened.db,
        governance,
        policies: [],
        logger,
        schedule: timers.schedule,
      });
      const before = replica.current().version;
      const next = before + 1;
      await opened.db.execute(
        'INSERT INTO gateway_policy_versions (version, rules, created_at, created_by) VALUES ($1, $2, $3, $4)',
        [
          next,
          JSON.stringify([{ id: 'x', when: 'nope(', effect: 'deny' }]),
          new Date().toISOString(),
          'test',
        ],
      );
      timers.fire();
      await replica.refresh();
      assert.equal(replica.current().version, before);
      assert.ok(
        capture.lines.some(
          (l) => /stored policy rules cannot be applied/.test(l) && l.includes(`"version":${next}`),
        ),
      );
      replica.close();
      // At startup the same set stops the gateway instead of letting other rules govern.
      await assert.rejects(
        openLiveGovernor({
          db: opened.db,
          governance,
          policies: [],
          logger,
          schedule: timers.schedule,
        }),
        (error: unknown) =>
          error instanceof PolicyConfigError &&
          /stored policy version \d+ cannot be applied/.test(error.message),
      );
    });
  });

describe('the configuration file’s rules are compiled at startup (issue 25: the error named)', () => {
  test('a rule that does not compile stops startup naming gateway.policies, the index, the id and the field', () => {
    const { logger } = createLogger({ level: 'silent', destination: new LogCapture() });
    assert.throws(
      () =>
        new LiveGovernor({
          source: {
            latestVersion: () => Promise.resolve(0),
            get: () => Promise.resolve(undefined),
          },
          governance,
          configured: [
            { id: 'fine', when: 'true', effect: 'allow' },
            { id: 'typo', when: 'tool.nmae == "x"', effect: 'deny' },
          ],
          logger,
        }),
      (error: unknown) =>
        error instanceof PolicyConfigError &&
        /^gateway\.policies cannot be compiled: gateway\.policies\.1\.when \(typo\): No such key: nmae/.test(
          error.message,
        ),
    );
  });
});
