// The governed step's own cost per tools/call (issue 25: "no measurable cost for calls no rule matches"),
// in-process, without the network noise of bench/compare: (1) no rule in force — what the call path does
// then (one read of the rule set); (2) rules in force that match nothing — the call built (UUID, caller,
// the amount converted) and the rules evaluated; (3) the arguments' canonical-JSON hash, which only consent
// and evidence read. Not part of the test suite.
//   npx tsc -p . && node dist/bench/governance/step.js
import { performance } from 'node:perf_hooks';
import { compileRules } from '../../src/gateway/governance/policy/compile.js';
import { createGovernor } from '../../src/gateway/governance/policy/governor.js';
import { buildGovernedCall } from '../../src/gateway/governance/call.js';
import { convertMoney } from '../../src/gateway/governance/money.js';
import type { Caller } from '../../src/gateway/caller.js';
import type { Tool } from '../../src/gateway/catalogue/types.js';

const settings = { baseCurrency: 'EUR', rates: { USD: '0.86' } };
const compiled = compileRules(
  [
    {
      id: 'confirm-over-a-million',
      when: 'has(money.base) && money.base > 1000000.0',
      effect: 'confirm',
      message: 'Payments above 1,000,000 EUR need your confirmation.',
    },
    {
      id: 'no-deletes',
      when: 'has(tool.annotations.destructiveHint) && tool.annotations.destructiveHint',
      effect: 'deny',
      message: 'Agents may not delete.',
    },
  ],
  settings,
);
if (!compiled.ok) throw new Error(JSON.stringify(compiled.problems));
const governed = createGovernor({ version: 1, rules: compiled.rules, baseCurrency: 'EUR' });
const empty = createGovernor({ version: 0, rules: [], baseCurrency: 'EUR' });

const caller: Caller = {
  requestId: 'r',
  clientIp: '127.0.0.1',
  subscription: {
    id: 'sub',
    application: 'bench',
    environment: 'development',
    tools: 'all',
    rateLimitPerMinute: null,
  },
  user: {
    subject: 'alice',
    claims: { sub: 'alice', scope: 'openid' },
    expiresAt: 0,
    tokenHash: 'h',
  },
};
const tool = {
  name: 'createPayment',
  backend: 'payments',
  operationId: 'createPayment',
  securityClass: 'optional',
  annotations: {},
} as unknown as Tool;
// The bench/compare payment: 125.50 EUR and a 1.4 KB payee.
const args = { body: { amount: { value: '125.50', currency: 'EUR' }, payee: 'x'.repeat(1400) } };
const money = { amount: '/body/amount/value', currency: '/body/amount/currency' };
const convert = (amount: string, currency: string) => convertMoney(amount, currency, settings);

function build() {
  const built = buildGovernedCall({
    caller,
    tool,
    arguments: args,
    sent: args,
    money,
    convert,
    now: new Date(),
  });
  if (!built.ok) throw new Error(built.message);
  return built.call;
}

function perCall(label: string, work: () => unknown, n = 100_000): void {
  for (let i = 0; i < n / 5; i++) work();
  const started = performance.now();
  for (let i = 0; i < n; i++) work();
  const micros = ((performance.now() - started) * 1000) / n;
  console.log(`| ${label} | ${micros.toFixed(2)} µs |`);
}

console.log('| step | per call |');
console.log('|---|---:|');
perCall('no rule in force: `current().empty`', () => empty.empty);
perCall('rules that match nothing: build the call + decide', () => governed.decide(build()));
perCall('  of which: build the call (UUID, caller, amount converted)', build);
const call = build();
perCall('  of which: decide (2 CEL rules)', () => governed.decide(call));
perCall(
  'the arguments hash (read only for consent and evidence)',
  () => build().argumentsHash,
  20_000,
);
