// What a business rule of a payment order is (one row of the table in table.ts) and the one loop that
// evaluates the table (pure). A row names its stable code, its ISO 20022 status reason and the JSON
// pointer of the field it is about; `applies` says whether it concerns the order at all and `check` what
// is wrong. A pointer with a `{…}` part (a site: `{party}`, `{account}`, `{i}` …) stands for every place
// the rule is checked; each finding names its site. docs/errors.md lists the table, tested both ways.
import type { RateTable } from '../fees/fx.js';
import type { PaymentOrder } from '../payment-order.js';
import type { DirectoryFacts } from './directory-facts.js';

/** Stable codes of the business rules (errors[].code of a 422, statusReasons[].code of validatePayment). */
export type RuleCode =
  | 'PAYMENT_INCOMPLETE'
  | 'CURRENCY_UNKNOWN'
  | 'AMOUNT_PRECISION'
  | 'EXCHANGE_RATE_REQUIRED'
  | 'DATE_ORDER'
  | 'DATE_TIME_WITHOUT_OFFSET'
  | 'UETR_INVALID'
  | 'IBAN_INVALID'
  | 'BIC_INVALID'
  | 'COUNTRY_UNKNOWN'
  | 'ROUTING_NUMBER_INVALID'
  | 'CREDITOR_REQUIRED'
  | 'EXECUTION_DATE_PAST'
  | 'SCHEDULE_START_REQUIRED'
  | 'SCHEDULE_IN_PAST'
  | 'SCHEME_CURRENCY'
  | 'SCHEME_ACCOUNT'
  | 'ROUTING_NUMBER_REQUIRED'
  | 'SAME_ACCOUNT'
  | 'PAYER_ACCOUNT_NOT_OWNED'
  | 'INSUFFICIENT_FUNDS'
  // go-live list (issue 26): funds in the account's currency, SEPA scheme rules, FX, ACH limits
  | 'EXCHANGE_RATE_UNAVAILABLE'
  | 'EXCHANGE_RATE_STALE'
  | 'SEPA_CHARGE_BEARER'
  | 'SEPA_NAME_TOO_LONG'
  | 'SEPA_CHARACTER_SET'
  | 'SEPA_REMITTANCE'
  | 'SEPA_REFERENCE'
  | 'TRANSFER_AMOUNT_MISMATCH'
  | 'ACH_SAME_DAY_LIMIT'
  | 'ACH_ACCOUNT_NUMBER'
  | 'ACH_SEC_CODE'
  // The bank directory at acceptance (rules/directory.ts).
  | 'ROUTING_NUMBER_NOT_ON_RAIL'
  | 'ROUTING_NUMBER_SETTLEMENT_ONLY'
  | 'ROUTING_NUMBER_RENUMBERED'
  | 'ROUTING_NUMBER_UNKNOWN'
  | 'BANK_CODE_DELETED'
  | 'BANK_CODE_DELETION_ANNOUNCED'
  | 'BANK_CODE_UNKNOWN'
  | 'BIC_COUNTRY_MISMATCH'
  | 'ACCOUNT_CHECK_DIGITS'
  | 'CHECK_METHOD_UNSUPPORTED'
  | 'LEI_LAPSED'
  | 'LEI_INACTIVE';

/** The ISO 20022 ExternalStatusReason1Code values the rules give (a pain.002 status report's reasons). */
export type IsoReason =
  | 'AC01' // incorrect account number
  | 'AC03' // invalid creditor account number
  | 'AG01' // transaction forbidden
  | 'AG03' // transaction type not supported
  | 'AM02' // not allowed amount (above the maximum)
  | 'AM04' // insufficient funds
  | 'AM11' // invalid transaction currency
  | 'AM12' // invalid amount
  | 'BE01' // inconsistent with end customer
  | 'BE09' // invalid country
  | 'CH16' // element content formally incorrect
  | 'CURR' // incorrect currency
  | 'DT01' // invalid date
  | 'RC01' // bank identifier incorrect
  | 'RC10' // invalid creditor agent clearing system member id
  | 'RR01' // missing debtor account or identification
  | 'RR03' // missing creditor name or address
  | 'RR09' // invalid structured creditor reference
  | 'RR10' // invalid character set
  | 'RR12'; // invalid identification

/** A user's account as the payer rules see it (loaded at the edge). */
export interface PayerAccount {
  readonly accountId: string;
  readonly currency: string;
  /** Available balance in minor units of `currency` (may be negative). */
  readonly availableMinor: bigint;
}

/** What the rules know beyond the order itself. */
export interface RuleContext {
  /** The service's clock (tests pin it). */
  readonly now: Date;
  /** The Used-Mechanism header, when the request has one (it may name the scheme). */
  readonly usedMechanism?: string | undefined;
  /**
   * The calling user's accounts with their available balances: the user owns these and nothing else (none:
   * every payer account is refused). Undefined only for a call without a user (validatePayment may be
   * anonymous and stores nothing): there is no one whose ownership could be checked.
   */
  readonly payerAccounts?: readonly PayerAccount[] | undefined;
  /**
   * The service's exchange rates (loaded at the edge) and how old a rate may be: a payment in another
   * currency than its payer account's is checked against the balance converted at these rates.
   */
  readonly rates?: { readonly table: RateTable; readonly maxAgeMs: number } | undefined;
  /**
   * What the bank directory says about the order's identifiers (loaded by the use case; issue 26, item
   * 2). Undefined: the directory is not consulted (fee quotes, pure unit tests).
   */
  readonly directory?: DirectoryFacts | undefined;
}

/** One broken rule: where (JSON pointer into the order), which rule, its ISO 20022 reason, and a message. */
export interface RuleViolation {
  readonly pointer: string;
  readonly code: RuleCode;
  readonly reason: IsoReason;
  readonly message: string;
}

/** A problem found at one site of a rule (`site` fills the pointer's `{…}` part), or at its pointer. */
export interface Finding {
  readonly site?: string;
  readonly message: string;
}

/** What `check` found: nothing, one message at the rule's pointer, or findings (several sites). */
export type Outcome = string | undefined | readonly Finding[];

export interface Rule {
  readonly code: RuleCode;
  readonly isoReason: IsoReason;
  /** JSON pointer of the field the rule is about; a `{…}` part stands for each site it is checked at. */
  readonly pointer: `/${string}`;
  /** Whether the rule concerns the order at all; absent: always. */
  readonly applies?: (order: PaymentOrder, context: RuleContext) => boolean;
  readonly check: (order: PaymentOrder, context: RuleContext) => Outcome;
}

const SITE = /\{[A-Za-z]+\}/;

/** Every violation of `rules` by `order`, in table order (row by row, site by site within a row). */
export function evaluate(
  rules: readonly Rule[],
  order: PaymentOrder,
  context: RuleContext,
): RuleViolation[] {
  const violations: RuleViolation[] = [];
  for (const rule of rules) {
    if (rule.applies && !rule.applies(order, context)) continue;
    const outcome = rule.check(order, context);
    const findings = typeof outcome === 'string' ? [{ message: outcome }] : (outcome ?? []);
    for (const { site, message } of findings)
      violations.push({
        pointer: pointerAt(rule, site),
        code: rule.code,
        reason: rule.isoReason,
        message,
      });
  }
  return violations;
}

function pointerAt(rule: Rule, site: string | undefined): string {
  if (SITE.test(rule.pointer) !== (site !== undefined))
    throw new Error(
      `rule ${rule.code} at ${rule.pointer}: a finding must name its site exactly then`,
    );
  return site === undefined ? rule.pointer : rule.pointer.replace(SITE, site);
}
