// Configuration of fee quotes (fee schedule, business-day calendar, cut-offs, customer tiers) and of the
// bank directory look-up (api keys, directory options). Spread into PaymentsSchema as `fees` and
// `bankLookup` (see docs/configuration.md).
import { Type, type Static } from '@sinclair/typebox';

const Channel = Type.Union([
  Type.Literal('RTGS'),
  Type.Literal('RTNS'),
  Type.Literal('MPNS'),
  Type.Literal('BOOK'),
]);
const Money = Type.Number({ minimum: 0, maximum: 1e12 });
const CurrencyCode = Type.String({ pattern: '^[A-Z]{3}$' });
const IsoDate = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });
const DATE_TIME = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)?(Z|[+-]\\d{2}:\\d{2})$';
const ClockTime = Type.String({ pattern: '^([01]\\d|2[0-3]):[0-5]\\d$' });

export const FeeRuleSchema = Type.Object(
  {
    id: Type.String({ pattern: '^[A-Za-z0-9_.-]{1,64}$' }),
    description: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: 'what the rule charges for, shown with each fee line of a quote',
      }),
    ),
    type: Type.String({
      pattern: '^[A-Z][A-Z0-9_]{0,25}$',
      description: 'fee type, reported as DEBTOR_<type> or CREDITOR_<type>',
    }),
    chargedBy: Type.Union([Type.Literal('PAYER_BANK'), Type.Literal('PAYEE_BANK')], {
      default: 'PAYER_BANK',
    }),
    channels: Type.Array(Channel, { default: [], description: 'empty = any channel' }),
    priorities: Type.Array(Type.Union([Type.Literal('NORM'), Type.Literal('HIGH')]), {
      default: [],
    }),
    scope: Type.Union(
      [Type.Literal('ANY'), Type.Literal('DOMESTIC'), Type.Literal('CROSS_BORDER')],
      { default: 'ANY' },
    ),
    chargeBearers: Type.Array(
      Type.Union([
        Type.Literal('DEBT'),
        Type.Literal('CRED'),
        Type.Literal('SHAR'),
        Type.Literal('SLEV'),
      ]),
      { default: [], description: 'empty = any charge bearer' },
    ),
    currencies: Type.Array(CurrencyCode, { default: [], description: 'empty = any currency' }),
    minAmount: Type.Optional(Money),
    maxAmount: Type.Optional(Money),
    flat: Type.Number({ minimum: 0, maximum: 1e9, default: 0 }),
    percent: Type.Number({ minimum: 0, maximum: 100, default: 0 }),
    minimum: Type.Optional(Money),
    maximum: Type.Optional(Money),
  },
  { additionalProperties: false },
);

export const PricingTierSchema = Type.Object(
  {
    discountPercent: Type.Number({ minimum: 0, maximum: 100, default: 0 }),
    waivedTypes: Type.Array(Type.String({ minLength: 1, maxLength: 26 }), { default: [] }),
  },
  { additionalProperties: false, default: {} },
);

const ChannelTimes = Type.Object(
  {
    RTGS: ClockTime,
    RTNS: ClockTime,
    MPNS: ClockTime,
    BOOK: ClockTime,
  },
  { additionalProperties: false },
);

const ChannelDays = Type.Object(
  {
    RTGS: Type.Integer({ minimum: 0, maximum: 10 }),
    RTNS: Type.Integer({ minimum: 0, maximum: 10 }),
    MPNS: Type.Integer({ minimum: 0, maximum: 10 }),
    BOOK: Type.Integer({ minimum: 0, maximum: 10 }),
  },
  { additionalProperties: false },
);

// The shipped schedule (amounts in the payment currency's major unit). Per fee type and charging bank the
// first matching rule wins, so currency-specific rules come before generic ones.
const rule = (r: Partial<FeeRuleConfig> & Pick<FeeRuleConfig, 'id' | 'type'>): FeeRuleConfig => ({
  chargedBy: 'PAYER_BANK',
  channels: [],
  priorities: [],
  scope: 'ANY',
  chargeBearers: [],
  currencies: [],
  flat: 0,
  percent: 0,
  ...r,
});

export const DEFAULT_FEE_RULES: FeeRuleConfig[] = [
  rule({
    id: 'book',
    description: 'book transfer between accounts of this bank: free',
    type: 'TRANSFER_FEE',
    channels: ['BOOK'],
  }),
  rule({
    id: 'jpy-cross-border',
    description: 'cross-border transfer in JPY: 1,500 + 0.1 %, at least 2,500, at most 15,000',
    type: 'TRANSFER_FEE',
    scope: 'CROSS_BORDER',
    currencies: ['JPY'],
    flat: 1500,
    percent: 0.1,
    minimum: 2500,
    maximum: 15000,
  }),
  rule({
    id: 'jpy-domestic',
    description: 'domestic transfer in JPY',
    type: 'TRANSFER_FEE',
    scope: 'DOMESTIC',
    currencies: ['JPY'],
    flat: 400,
  }),
  rule({
    id: 'cross-border',
    description: 'cross-border transfer: 10 + 0.1 %, at least 15, at most 100',
    type: 'TRANSFER_FEE',
    scope: 'CROSS_BORDER',
    flat: 10,
    percent: 0.1,
    minimum: 15,
    maximum: 100,
  }),
  rule({
    id: 'usd-wire',
    description: 'USD wire (Fedwire)',
    type: 'TRANSFER_FEE',
    channels: ['RTGS'],
    currencies: ['USD'],
    flat: 25,
  }),
  rule({
    id: 'rtgs',
    description: 'high-value (RTGS) transfer',
    type: 'TRANSFER_FEE',
    channels: ['RTGS'],
    flat: 15,
  }),
  rule({
    id: 'instant',
    description: 'instant payment',
    type: 'TRANSFER_FEE',
    channels: ['RTNS'],
    flat: 0.5,
  }),
  rule({
    id: 'mass',
    description: 'batch (ACH / SEPA / Bacs) transfer',
    type: 'TRANSFER_FEE',
    channels: ['MPNS'],
    flat: 0.25,
  }),
  rule({
    id: 'jpy-priority',
    description: 'urgent (priority HIGH) surcharge in JPY',
    type: 'PRIORITY_SURCHARGE',
    priorities: ['HIGH'],
    currencies: ['JPY'],
    channels: ['RTGS', 'MPNS'],
    flat: 1500,
  }),
  rule({
    id: 'priority',
    description: 'urgent (priority HIGH) surcharge',
    type: 'PRIORITY_SURCHARGE',
    priorities: ['HIGH'],
    channels: ['RTGS', 'MPNS'],
    flat: 10,
  }),
  rule({
    id: 'large-value',
    description: 'large-value fee: 0.01 % from 1,000,000, at most 250',
    type: 'LARGE_VALUE_FEE',
    currencies: ['EUR', 'USD', 'GBP', 'CHF'],
    channels: ['RTGS', 'RTNS', 'MPNS'],
    minAmount: 1000000,
    percent: 0.01,
    maximum: 250,
  }),
  rule({
    id: 'our-surcharge',
    description: 'OUR surcharge: the payer also pays the foreign banks (charge bearer DEBT)',
    type: 'OUR_SURCHARGE',
    scope: 'CROSS_BORDER',
    chargeBearers: ['DEBT'],
    flat: 20,
  }),
  rule({
    id: 'jpy-receiving',
    description: "payee bank's fee for receiving a cross-border JPY payment",
    type: 'RECEIVING_FEE',
    chargedBy: 'PAYEE_BANK',
    scope: 'CROSS_BORDER',
    currencies: ['JPY'],
    flat: 750,
  }),
  rule({
    id: 'receiving',
    description: "payee bank's fee for receiving a cross-border payment",
    type: 'RECEIVING_FEE',
    chargedBy: 'PAYEE_BANK',
    scope: 'CROSS_BORDER',
    channels: ['RTGS', 'RTNS', 'MPNS'],
    flat: 5,
  }),
];

const HolidayCalendar = Type.Union(
  [
    Type.Literal('FEDERAL_RESERVE'),
    Type.Literal('TARGET'),
    Type.Literal('ENGLAND_WALES'),
    Type.Literal('NONE'),
  ],
  { description: 'holiday calendar computed by rule' },
);
const WeekendDays = Type.Array(Type.Integer({ minimum: 0, maximum: 6 }), {
  maxItems: 7,
  description: '0 = Sunday … 6 = Saturday',
});

export interface RailDefaults {
  readonly channel: Static<typeof Channel>;
  readonly currencies: string[];
  readonly timeZone: string;
  readonly calendar: Static<typeof HolidayCalendar>;
  readonly weekendDays: number[];
  readonly cutOff: string;
  readonly settlementDays: number;
  readonly instant?: boolean;
}

/** A rail's clock; every key has the rail's own default, so a partial override keeps the rest. */
function railSchema(d: RailDefaults) {
  return Type.Object(
    {
      channel: Type.Union(Channel.anyOf, { default: d.channel }),
      currencies: Type.Array(CurrencyCode, {
        default: d.currencies,
        description: 'payment currencies this rail is chosen for when no mechanism names it',
      }),
      timeZone: Type.String({ minLength: 1, maxLength: 64, default: d.timeZone }),
      calendar: Type.Union(HolidayCalendar.anyOf, { default: d.calendar }),
      holidays: Type.Array(IsoDate, {
        default: [],
        description: 'extra closing days of this rail (one-off holidays)',
      }),
      weekendDays: Type.Array(WeekendDays.items, { maxItems: 7, default: d.weekendDays }),
      cutOff: Type.String({ pattern: ClockTime.pattern, default: d.cutOff }),
      settlementDays: Type.Integer({ minimum: 0, maximum: 10, default: d.settlementDays }),
      businessDayConvention: Type.Union(
        [Type.Literal('FOLLOWING'), Type.Literal('MODIFIED_FOLLOWING'), Type.Literal('PRECEDING')],
        {
          default: 'FOLLOWING',
          description:
            'how a requested execution date on a weekend or closing day of the rail is rolled',
        },
      ),
      instant: Type.Boolean({
        default: d.instant ?? false,
        description:
          'an instant rail (SCT Inst, FedNow, Faster Payments): executes and settles within seconds at any time',
      }),
    },
    { additionalProperties: false, default: {} },
  );
}

const NY = 'America/New_York';
const BERLIN = 'Europe/Berlin';
const LONDON = 'Europe/London';
const WEEKEND = [0, 6];

/**
 * The rails and their clocks. Cut-offs are the bank's own acceptance deadlines in the rail's zone:
 * Fedwire customer transfers 18:00 ET; FedACH's last same-day window 16:45 ET (value the next business
 * day, as standard ACH credits settle); TARGET2 customer payments 17:00 CET; SEPA credit transfers
 * 14:00 CET for a D+1 value date; CHAPS customer payments 17:40 UK; Bacs input 22:30 UK on the
 * three-day cycle (value two business days later); instant rails (SCT Inst, Faster Payments, FedNow)
 * around the clock every day.
 */
export const DEFAULT_RAILS: Record<RailName, RailDefaults> = {
  FEDWIRE: {
    channel: 'RTGS',
    currencies: ['USD'],
    timeZone: NY,
    calendar: 'FEDERAL_RESERVE',
    weekendDays: WEEKEND,
    cutOff: '18:00',
    settlementDays: 0,
  },
  ACH: {
    channel: 'MPNS',
    currencies: ['USD'],
    timeZone: NY,
    calendar: 'FEDERAL_RESERVE',
    weekendDays: WEEKEND,
    cutOff: '16:45',
    settlementDays: 1,
  },
  FEDNOW: {
    channel: 'RTNS',
    currencies: ['USD'],
    timeZone: NY,
    calendar: 'NONE',
    weekendDays: [],
    cutOff: '23:59',
    settlementDays: 0,
    instant: true,
  },
  TARGET2: {
    channel: 'RTGS',
    currencies: ['EUR'],
    timeZone: BERLIN,
    calendar: 'TARGET',
    weekendDays: WEEKEND,
    cutOff: '17:00',
    settlementDays: 0,
  },
  SEPA: {
    channel: 'MPNS',
    currencies: ['EUR'],
    timeZone: BERLIN,
    calendar: 'TARGET',
    weekendDays: WEEKEND,
    cutOff: '14:00',
    settlementDays: 1,
  },
  SEPA_INST: {
    channel: 'RTNS',
    currencies: ['EUR'],
    timeZone: BERLIN,
    calendar: 'NONE',
    weekendDays: [],
    cutOff: '23:59',
    settlementDays: 0,
    instant: true,
  },
  CHAPS: {
    channel: 'RTGS',
    currencies: ['GBP'],
    timeZone: LONDON,
    calendar: 'ENGLAND_WALES',
    weekendDays: WEEKEND,
    cutOff: '17:40',
    settlementDays: 0,
  },
  BACS: {
    channel: 'MPNS',
    currencies: ['GBP'],
    timeZone: LONDON,
    calendar: 'ENGLAND_WALES',
    weekendDays: WEEKEND,
    cutOff: '22:30',
    settlementDays: 2,
  },
  FPS: {
    channel: 'RTNS',
    currencies: ['GBP'],
    timeZone: LONDON,
    calendar: 'NONE',
    weekendDays: [],
    cutOff: '23:59',
    settlementDays: 0,
    instant: true,
  },
};

export const RAIL_NAMES = [
  'FEDWIRE',
  'ACH',
  'FEDNOW',
  'TARGET2',
  'SEPA',
  'SEPA_INST',
  'CHAPS',
  'BACS',
  'FPS',
] as const;
export type RailName = (typeof RAIL_NAMES)[number];

const RailsSchema = Type.Object(
  Object.fromEntries(RAIL_NAMES.map((name) => [name, railSchema(DEFAULT_RAILS[name])])) as {
    [K in RailName]: ReturnType<typeof railSchema>;
  },
  { additionalProperties: false, default: {} },
);

const RateEntry = Type.Object(
  {
    mid: Type.Number({
      exclusiveMinimum: 0,
      maximum: 1e9,
      description: 'mid-market rate: units of the second currency per unit of the first',
    }),
    marginBasisPoints: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: 2000,
        description: "the bank's margin on this pair, in basis points (overrides the default)",
      }),
    ),
    asOf: Type.Optional(
      Type.String({ pattern: DATE_TIME, description: 'when the rate was fixed' }),
    ),
  },
  { additionalProperties: false },
);

/** `EUR/USD` → rate entry; the reverse direction is derived (1 / mid). */
export const RatePairsSchema = Type.Record(
  Type.String({ pattern: '^[A-Z]{3}/[A-Z]{3}$' }),
  RateEntry,
  {
    default: {},
    additionalProperties: false,
  },
);

/** The content of `rates.file` (JSON or YAML): the same keys as the inline table. */
export const RatesFileSchema = Type.Object(
  {
    source: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    asOf: Type.Optional(Type.String({ pattern: DATE_TIME })),
    pairs: RatePairsSchema,
  },
  { additionalProperties: false },
);

export const RatesSchema = Type.Object(
  {
    source: Type.String({
      minLength: 1,
      maxLength: 100,
      default: 'configuration',
      description: 'name of the rate source, shown in quotes',
    }),
    asOf: Type.Optional(
      Type.String({ pattern: DATE_TIME, description: 'when the inline rates were fixed' }),
    ),
    marginBasisPoints: Type.Number({
      minimum: 0,
      maximum: 2000,
      default: 0,
      description: "default margin of the bank's rate against mid, in basis points",
    }),
    pairs: RatePairsSchema,
    file: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 1024,
        description: 'JSON or YAML rate file, re-read when its modification time changes',
      }),
    ),
    maxAgeSeconds: Type.Integer({
      minimum: 60,
      maximum: 90 * 86400,
      default: 4 * 86400,
      description:
        'a rate whose asOf is older than this is not used (422 EXCHANGE_RATE_STALE); 4 days covers a weekend and a holiday',
    }),
  },
  { additionalProperties: false, default: {} },
);

export const FeesSchema = Type.Object(
  {
    rules: Type.Array(FeeRuleSchema, { maxItems: 500, default: DEFAULT_FEE_RULES }),
    timeZone: Type.String({
      minLength: 1,
      maxLength: 64,
      default: 'Europe/Berlin',
      description: 'IANA time zone of the bank clock (book transfers, currencies without a rail)',
    }),
    weekendDays: Type.Array(WeekendDays.items, {
      maxItems: 7,
      default: [0, 6],
      description: '0 = Sunday … 6 = Saturday',
    }),
    holidays: Type.Array(IsoDate, {
      default: [],
      description: 'non-business days for every currency',
    }),
    holidaysByCurrency: Type.Record(CurrencyCode, Type.Array(IsoDate), {
      default: {},
      description: 'extra closing days per payment currency (bank clock and rails alike)',
    }),
    calendarsByCurrency: Type.Record(CurrencyCode, HolidayCalendar, {
      default: { EUR: 'TARGET', USD: 'FEDERAL_RESERVE', GBP: 'ENGLAND_WALES' },
      description:
        'holiday calendar of the bank clock per payment currency (book transfers, no rail)',
    }),
    rails: RailsSchema,
    rates: RatesSchema,
    cutOffTimes: Type.Object(ChannelTimes.properties, {
      additionalProperties: false,
      default: { RTGS: '16:00', RTNS: '23:59', MPNS: '14:00', BOOK: '20:00' },
    }),
    settlementDays: Type.Object(ChannelDays.properties, {
      additionalProperties: false,
      default: { RTGS: 0, RTNS: 0, MPNS: 1, BOOK: 0 },
      description: 'business days from execution to value date',
    }),
    crossBorderExtraDays: Type.Integer({ minimum: 0, maximum: 10, default: 1 }),
    tiers: Type.Record(Type.String({ pattern: '^[a-z][a-z0-9_-]{0,31}$' }), PricingTierSchema, {
      default: {
        premium: { discountPercent: 50, waivedTypes: [] },
        private: { discountPercent: 100, waivedTypes: [] },
      },
    }),
    customerTiers: Type.Record(
      Type.String({ minLength: 1, maxLength: 128 }),
      Type.String({ minLength: 1, maxLength: 32 }),
      { default: {}, description: 'user id → tier name' },
    ),
  },
  { additionalProperties: false, default: {} },
);

export const BankLookupSchema = Type.Object(
  {
    apiKeys: Type.Array(Type.String({ minLength: 16, maxLength: 256 }), {
      default: [],
      description: 'accepted values of the api-key header of fetch-bank-details',
    }),
    loadSampleOnStart: Type.Boolean({
      default: true,
      description: 'load the generated sample directory when the directory is empty',
    }),
    nameMatchThreshold: Type.Number({ minimum: 0.5, maximum: 1, default: 0.85 }),
    importBatchSize: Type.Integer({ minimum: 1, maximum: 1000, default: 200 }),
  },
  { additionalProperties: false, default: {} },
);

/** Spread into PaymentsSchema's properties: `...PaymentsFeesProperties`. */
export const PaymentsFeesProperties = { fees: FeesSchema, bankLookup: BankLookupSchema };

export type FeeRuleConfig = Static<typeof FeeRuleSchema>;
export type FeesConfig = Static<typeof FeesSchema>;
export type RatesConfig = Static<typeof RatesSchema>;
export type RatesFile = Static<typeof RatesFileSchema>;
export type BankLookupConfig = Static<typeof BankLookupSchema>;
