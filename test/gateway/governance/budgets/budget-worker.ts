// Child process for the cross-process budget test: one gateway replica's ledger (openBudgetLedger on its
// own Redis connection); on "go" (a line on stdin) it fires COUNT concurrent reservations of AMOUNT and
// prints how many were admitted.
import { createInterface } from 'node:readline';
import { parseBudgetsConfig } from '../../../../src/config/gateway-governance-budgets.js';
import { parseRateLimitConfig } from '../../../../src/config/gateway-ratelimit.js';
import { openBudgetLedger } from '../../../../src/gateway/governance/budgets/open.js';
import { limit, paymentCall } from './calls.js';

const [url = '', prefix = '', amountText = '0', countText = '0', at = ''] = process.argv.slice(2);
const ledger = await openBudgetLedger(
  {
    gateway: {
      rateLimit: parseRateLimitConfig({ redis: { url } }),
      redis: { connectTimeoutMs: 5000, commandTimeoutMs: 5000 },
      governance: {
        budgets: parseBudgetsConfig({ redis: { keyPrefix: prefix, commandTimeoutMs: 10_000 } }),
      },
    },
  },
  {},
  10_000,
);
const limits = [limit(1_000_000, 'user', 'day'), limit(1_500_000, 'subscription', 'month')];

process.stdout.write('ready\n');
const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  if (line.trim() !== 'go') continue;
  const outcomes = await Promise.all(
    Array.from({ length: Number(countText) }, () =>
      ledger.reserve(paymentCall({ baseMinor: Number(amountText), at: new Date(at) }), limits),
    ),
  );
  const admitted = outcomes.filter((o) => o.ok).length;
  process.stdout.write(`${JSON.stringify({ admitted, total: outcomes.length })}\n`);
  break;
}
lines.close();
await ledger.close();
