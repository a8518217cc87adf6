// Field rules (pure): what each field of a record must satisfy on its own or with its neighbours
// (currencies, precision, exchange rate, countries, IBAN, BIC, uetr, date order and offsets). They
// apply to payment records and to the shared parts of fee queries. Documented in docs/decisions.md, D-151.
import { isValidBIC, isValidIBAN } from 'ibantools';
import { parseRoutingNumber } from '../../directory/routing-number.js';
import { isCountry } from '../countries.js';
import { decimalsOf, isCurrency, minorUnit } from '../currencies.js';
import { at, num, obj, str, type PaymentRecord } from '../record-access.js';
import { electronicIban, isIbanAccount, isUsRoutingNumber } from './identifiers.js';
import type { RuleViolation } from './violation.js';

const PARTIES = ['payerReference', 'payeeReference', 'payerBankReference', 'payeeBankReference'];
const ACCOUNTS = ['payerAccountReference', 'payeeAccountReference'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
const OFFSET = /(Z|[+-]\d{2}:?\d{2})$/i;

export function checkFieldRules(record: PaymentRecord): RuleViolation[] {
  const errors: RuleViolation[] = [];
  const add = (pointer: string, code: string, reason: string, message: string) =>
    errors.push({ pointer, code, reason, message });

  const amount = at(record, 'paymentInstruction', 'amount');
  const base = '/paymentInstruction/amount';
  const instructed = str(at(amount, 'instructedCurrency'));
  const transfer = str(at(amount, 'transferCurrency'));
  checkMoney(
    add,
    `${base}/instructedAmount`,
    num(at(amount, 'instructedAmount')),
    instructed,
    `${base}/instructedCurrency`,
  );
  checkMoney(
    add,
    `${base}/transferAmount`,
    num(at(amount, 'transferAmount')),
    transfer ?? instructed,
    `${base}/transferCurrency`,
    transfer === undefined,
  );

  const rate = obj(at(record, 'paymentInstruction', 'exchangeRate'));
  if (rate?.['currency'] !== undefined)
    checkCurrency(add, '/paymentInstruction/exchangeRate/currency', str(rate['currency']));
  if (instructed && transfer && instructed !== transfer && num(rate?.['rate']) === undefined) {
    add(
      '/paymentInstruction/exchangeRate/rate',
      'EXCHANGE_RATE_REQUIRED',
      'CURR',
      `an exchange rate is required when transferCurrency (${transfer}) differs from instructedCurrency (${instructed})`,
    );
  }

  const fees = at(record, 'paymentInstruction', 'appliedFee');
  if (Array.isArray(fees)) {
    fees.forEach((fee, i) => {
      const p = `/paymentInstruction/appliedFee/${i}`;
      const currency = str(at(fee, 'currency'));
      if (currency !== undefined) checkCurrency(add, `${p}/currency`, currency);
      const value = num(at(fee, 'amount'));
      if (value !== undefined && currency && isCurrency(currency))
        checkPrecision(add, `${p}/amount`, value, currency);
    });
  }

  checkDateOrder(
    add,
    '/paymentInstruction/schedule',
    at(record, 'paymentInstruction', 'schedule'),
    'startDate',
    'endDate',
  );
  checkDateOrder(
    add,
    '/paymentInstruction/processingValidityTime',
    at(record, 'paymentInstruction', 'processingValidityTime'),
    'startDateTime',
    'endDateTime',
  );
  for (const [p, v] of dateTimes(record)) {
    if (!OFFSET.test(v))
      add(
        p,
        'DATE_TIME_WITHOUT_OFFSET',
        'DT01',
        'date-times must carry a time-zone offset (Z or ±hh:mm)',
      );
  }

  const uetr = str(at(record, 'paymentInstructionReference', 'uetr'));
  if (uetr !== undefined && !UUID.test(uetr))
    add('/paymentInstructionReference/uetr', 'UETR_INVALID', 'RR12', 'uetr must be a UUID');

  for (const name of ACCOUNTS) {
    const account = obj(at(record, name, 'paymentInstructionAccount'));
    const id = str(account?.['accountId']);
    if (!account || id === undefined) continue;
    const numberType = str(account['numberType'])?.toUpperCase();
    if (isIbanAccount(id, numberType) && !isValidIBAN(electronicIban(id))) {
      add(
        `/${name}/paymentInstructionAccount/accountId`,
        'IBAN_INVALID',
        'AC01',
        `${electronicIban(id)} is not a valid IBAN (country, length or check digits)`,
      );
    }
    if ((numberType === 'BIC' || numberType === 'SWIFT_CODE') && !isValidBIC(id)) {
      add(`/${name}/paymentInstructionAccount/accountId`, 'BIC_INVALID', 'RC01', 'not a valid BIC');
    }
  }
  const parties: [string, unknown][] = PARTIES.map((n) => [
    `/${n}/involvedParty`,
    at(record, n, 'involvedParty'),
  ]);
  const interested = record['interestedParties'];
  if (Array.isArray(interested))
    interested.forEach((p, i) => parties.push([`/interestedParties/${i}`, p]));
  for (const [p, party] of parties) {
    const country = str(at(party, 'address', 'country'));
    if (country !== undefined && !isCountry(country))
      add(
        `${p}/address/country`,
        'COUNTRY_UNKNOWN',
        'BE09',
        `${country} is not an ISO 3166-1 alpha-2 country code`,
      );
    const org = obj(at(party, 'organisationIdentification'));
    const orgId = str(org?.['identificationNo']);
    if (orgId !== undefined && isUsRoutingNumber(party)) {
      const parsed = parseRoutingNumber(orgId);
      if (!parsed.ok)
        add(
          `${p}/organisationIdentification/identificationNo`,
          'ROUTING_NUMBER_INVALID',
          'RC01',
          `${orgId} is not a valid US routing number: ${parsed.reason}`,
        );
    }
    if (org?.['type'] === 'BICFI' && orgId !== undefined && !isValidBIC(orgId)) {
      add(
        `${p}/organisationIdentification/identificationNo`,
        'BIC_INVALID',
        'RC01',
        'not a valid BIC',
      );
    }
  }
  return errors;
}

type Add = (pointer: string, code: string, reason: string, message: string) => void;

function checkCurrency(add: Add, pointer: string, code: string | undefined): boolean {
  if (code === undefined) return false;
  if (isCurrency(code)) return true;
  add(pointer, 'CURRENCY_UNKNOWN', 'AM11', `${code} is not an active ISO 4217 currency`);
  return false;
}

function checkMoney(
  add: Add,
  pointer: string,
  value: number | undefined,
  currency: string | undefined,
  currencyPointer: string,
  inherited = false,
): void {
  const known = inherited
    ? currency !== undefined && isCurrency(currency)
    : checkCurrency(add, currencyPointer, currency);
  if (value !== undefined && known && currency) checkPrecision(add, pointer, value, currency);
}

function checkPrecision(add: Add, pointer: string, value: number, currency: string): void {
  const digits = minorUnit(currency) ?? 0;
  if (decimalsOf(value) > digits) {
    add(
      pointer,
      'AMOUNT_PRECISION',
      'AM12',
      `${currency} amounts take at most ${digits} decimal${digits === 1 ? '' : 's'}`,
    );
  }
}

function checkDateOrder(
  add: Add,
  base: string,
  value: unknown,
  startKey: string,
  endKey: string,
): void {
  const start = Date.parse(str(at(value, startKey)) ?? '');
  const end = Date.parse(str(at(value, endKey)) ?? '');
  if (!Number.isNaN(start) && !Number.isNaN(end) && start >= end) {
    add(`${base}/${endKey}`, 'DATE_ORDER', 'DT01', `${endKey} must be after ${startKey}`);
  }
}

function dateTimes(record: PaymentRecord): [string, string][] {
  const out: [string, string][] = [];
  const groups: [string, string[]][] = [
    [
      'paymentDates',
      ['requestedExecutionDate', 'acceptanceDate', 'deliveryDate', 'valueDate', 'expiryDate'],
    ],
    ['processingValidityTime', ['startDateTime', 'endDateTime']],
    ['schedule', ['startDate', 'endDate', 'executeOn']],
  ];
  for (const [group, keys] of groups) {
    for (const key of keys) {
      const v = str(at(record, 'paymentInstruction', group, key));
      if (v !== undefined) out.push([`/paymentInstruction/${group}/${key}`, v]);
    }
  }
  return out;
}
