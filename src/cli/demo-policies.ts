// The demo rule set `toolgate start` (`npm start`) ships (issue 25): payments above 1,000 EUR need the
// user's own confirmation, above 10,000 EUR the approval of a second person with the role
// `payments-approver`, and every user has a daily budget of 25,000 EUR. The exchange rates are sample
// data so that payments in other currencies can be tried, not market rates. Both apply only when the
// configuration sets neither rules nor rates: an operator's own always win. Rules stored through the admin
// API replace these as they replace any file rules.
import type { Config } from '../config/schema.js';

export const DEMO_POLICIES = [
  {
    id: 'demo-confirm-over-1000',
    description: 'Payments above 1,000 EUR need the confirmation of the user they are made for.',
    when: 'has(money.base) && money.base > 1000.0',
    effect: 'confirm',
    message: 'Payments above 1,000 EUR need your confirmation.',
  },
  {
    id: 'demo-approve-over-10000',
    description: 'Payments above 10,000 EUR need the approval of a second person (four eyes).',
    when: 'has(money.base) && money.base > 10000.0',
    effect: 'approve',
    role: 'payments-approver',
    message: 'Payments above 10,000 EUR need the approval of a payments approver.',
  },
  {
    id: 'demo-daily-budget',
    description: 'Every user may move at most 25,000 EUR a day.',
    when: 'has(money.base)',
    effect: 'budget',
    budget: { scope: 'user', period: 'day', limit: '25000' },
  },
] as const satisfies Config['gateway']['policies'];

/** SAMPLE DATA, not market rates: the value of one unit in EUR, for trying payments in other currencies. */
export const DEMO_RATES: Readonly<Record<string, string>> = {
  USD: '0.86',
  GBP: '1.15',
  CHF: '1.07',
};

/** Puts the demo rules and sample rates into a configuration draft that has none of its own. */
export function addDemoPolicies(draft: Config): void {
  const governance = draft.gateway.governance;
  if (draft.gateway.policies.length === 0)
    draft.gateway.policies = DEMO_POLICIES.map(
      (rule) => structuredClone(rule) as Config['gateway']['policies'][number],
    );
  if (Object.keys(governance.rates).length === 0 && governance.baseCurrency === 'EUR')
    governance.rates = { ...DEMO_RATES };
}
