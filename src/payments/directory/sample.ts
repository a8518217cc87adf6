// The synthetic sample directory the project ships instead of licensed data: a few dozen invented banks
// with real formats and valid check digits. US banks appear in FedACH and Fedwire form (valid ABA
// checksums and Federal Reserve prefixes); European banks come as CSV with BICs and the bank / branch
// codes their IBANs carry. Deterministic: the same seed always gives the same directory.
import { isValidBBAN } from 'ibantools';
import type { Database } from '../../shared/db/types.js';
import { ibanFromBban } from './iban.js';
import { importDirectory, type ImportSummary } from './import.js';
import { formatBankCsv, parseBankCsv, type BankCsvRecord } from './importers/csv.js';
import { formatFedachRecord, parseFedach, type FedachRecord } from './importers/fedach.js';
import { formatFedwireRecord, parseFedwire, type FedwireRecord } from './importers/fedwire.js';
import { seededRandom, type Random } from './random.js';
import { abaCheckDigit } from './routing-number.js';

export const SAMPLE_SEED = 20261122;

const US_PLACES: readonly [string, string, string, string][] = [
  // city, state, zip, Fed district of the city (routing prefix)
  ['BOSTON', 'MA', '02110', '01'],
  ['NEW YORK', 'NY', '10005', '02'],
  ['PHILADELPHIA', 'PA', '19103', '03'],
  ['CLEVELAND', 'OH', '44114', '04'],
  ['RICHMOND', 'VA', '23219', '05'],
  ['ATLANTA', 'GA', '30303', '06'],
  ['CHICAGO', 'IL', '60603', '07'],
  ['ST LOUIS', 'MO', '63102', '08'],
  ['MINNEAPOLIS', 'MN', '55402', '09'],
  ['KANSAS CITY', 'MO', '64106', '10'],
  ['DALLAS', 'TX', '75201', '11'],
  ['SAN FRANCISCO', 'CA', '94104', '12'],
];
const US_WORDS = [
  'Harbor',
  'Summit',
  'Prairie',
  'Granite',
  'Lakeside',
  'Pioneer',
  'Riverbend',
  'Cedar',
  'Beacon',
  'Keystone',
  'Meridian',
  'Frontier',
  'Liberty',
  'Copper',
  'Bluewater',
  'Northgate',
];
const US_KINDS = [
  'National Bank',
  'Savings Bank',
  'Trust Company',
  'Community Bank',
  'Bank & Trust',
];

interface Country {
  readonly code: string;
  readonly words: readonly string[];
  readonly kinds: readonly string[];
  readonly towns: readonly [string, string][];
  readonly street: string;
  readonly phone: string;
  readonly bankCode: (r: Random, bic: string) => string;
  readonly branchCode?: (r: Random) => string;
  readonly bban: (r: Random, bank: string, branch: string | undefined) => string;
}

const COUNTRIES: readonly Country[] = [
  {
    code: 'DE',
    street: 'Hauptstrasse',
    phone: '+49 69',
    words: ['Nordwest', 'Rhein', 'Alster', 'Isar', 'Spree', 'Elbtal'],
    kinds: ['Bank AG', 'Sparkasse', 'Volksbank eG', 'Privatbank'],
    towns: [
      ['Frankfurt am Main', '60311'],
      ['Hamburg', '20095'],
      ['München', '80331'],
    ],
    bankCode: (r) => `${r.int(1, 8)}${r.digits(2)}${r.pick(['0', '4', '5', '7'])}${r.digits(4)}`,
    bban: (r, bank) => bank + r.digits(10),
  },
  {
    code: 'GB',
    street: 'High Street',
    phone: '+44 20',
    words: ['Thames', 'Pennine', 'Cotswold', 'Severn', 'Mercia'],
    kinds: ['Bank plc', 'Building Society', 'Private Bank'],
    towns: [
      ['London', 'EC2R 8AH'],
      ['Manchester', 'M2 4WU'],
      ['Edinburgh', 'EH2 2YB'],
    ],
    bankCode: (_r, bic) => bic.slice(0, 4),
    branchCode: (r) => `${r.int(10, 99)}${r.digits(4)}`,
    bban: (r, bank, branch) => bank + (branch ?? '') + r.digits(8),
  },
  {
    code: 'FR',
    street: 'Rue de la Paix',
    phone: '+33 1',
    words: ['Loire', 'Garonne', 'Provence', 'Bretagne', 'Alsace'],
    kinds: ['Banque', 'Crédit Mutuel', 'Caisse d’Épargne'],
    towns: [
      ['Paris', '75002'],
      ['Lyon', '69002'],
      ['Bordeaux', '33000'],
    ],
    bankCode: (r) => `${r.int(10, 30)}${r.digits(3)}`,
    branchCode: (r) => r.digits(5),
    bban: (r, bank, branch) => bank + (branch ?? '') + r.digits(11) + '00',
  },
  {
    code: 'NL',
    street: 'Kerkstraat',
    phone: '+31 20',
    words: ['Amstel', 'Zuiderzee', 'Veluwe', 'Maas'],
    kinds: ['Bank N.V.', 'Spaarbank'],
    towns: [
      ['Amsterdam', '1012 JS'],
      ['Rotterdam', '3011 AD'],
    ],
    bankCode: (_r, bic) => bic.slice(0, 4),
    bban: (r, bank) => bank + r.digits(10),
  },
  {
    code: 'CH',
    street: 'Bahnhofstrasse',
    phone: '+41 44',
    words: ['Helvetia', 'Limmat', 'Jura', 'Lac Léman'],
    kinds: ['Kantonalbank', 'Privatbank AG', 'Banque SA'],
    towns: [
      ['Zürich', '8001'],
      ['Genève', '1204'],
      ['Basel', '4051'],
    ],
    bankCode: (r) => `00${r.int(100, 899)}`,
    bban: (r, bank) => bank + r.digits(12),
  },
  {
    code: 'AT',
    street: 'Ringstrasse',
    phone: '+43 1',
    words: ['Donau', 'Tirol', 'Wienerwald'],
    kinds: ['Bank AG', 'Sparkasse'],
    towns: [
      ['Wien', '1010'],
      ['Graz', '8010'],
    ],
    bankCode: (r) => `${r.int(1, 6)}${r.digits(4)}`,
    bban: (r, bank) => bank + r.digits(11),
  },
  {
    code: 'IT',
    street: 'Via Roma',
    phone: '+39 02',
    words: ['Tevere', 'Lombarda', 'Adriatica'],
    kinds: ['Banca S.p.A.', 'Banca Popolare'],
    towns: [
      ['Milano', '20121'],
      ['Roma', '00186'],
    ],
    bankCode: (r) => `0${r.digits(4)}`,
    branchCode: (r) => r.digits(5),
    bban: (r, bank, branch) => r.letters(1) + bank + (branch ?? '') + r.digits(12),
  },
  {
    code: 'LU',
    street: 'Boulevard Royal',
    phone: '+352 4',
    words: ['Moselle', 'Ardennes'],
    kinds: ['Banque S.A.'],
    towns: [['Luxembourg', 'L-1150']],
    bankCode: (r) => `0${r.digits(2)}`,
    bban: (r, bank) => bank + r.digits(13),
  },
];

function routingNumber(r: Random, prefix: string): string {
  const base = prefix + r.digits(6);
  return base + String(abaCheckDigit(base));
}

function bicFor(r: Random, name: string, country: string): string {
  const letters = name.toUpperCase().replace(/[^A-Z]/g, '');
  const inst = (letters.slice(0, 3) + r.letters(1)).padEnd(4, 'X');
  return `${inst}${country}${r.letters(1)}${r.int(1, 9)}`;
}

/** A BBAN with valid national check digits: try random account numbers until one validates. */
function validBban(r: Random, c: Country, bank: string, branch: string | undefined): string {
  for (let i = 0; i < 10000; i += 1) {
    const candidate = c.bban(r, bank, branch);
    if (isValidBBAN(candidate, c.code)) return candidate;
    // Countries with a trailing two-digit key: search the key space.
    for (let k = 0; k < 100; k += 1) {
      const keyed = candidate.slice(0, -2) + String(k).padStart(2, '0');
      if (isValidBBAN(keyed, c.code)) return keyed;
    }
  }
  throw new Error(`cannot generate a valid ${c.code} BBAN`);
}

export interface SampleDirectory {
  readonly fedach: readonly FedachRecord[];
  readonly fedwire: readonly FedwireRecord[];
  readonly csv: readonly BankCsvRecord[];
  /** One valid example IBAN per non-US bank office, for demos and tests. */
  readonly exampleIbans: readonly { readonly iban: string; readonly bic: string }[];
}

export function generateSampleDirectory(seed = SAMPLE_SEED): SampleDirectory {
  const r = seededRandom(seed);
  const fedach: FedachRecord[] = [];
  const fedwire: FedwireRecord[] = [];
  const csv: BankCsvRecord[] = [];
  const exampleIbans: { iban: string; bic: string }[] = [];
  US_PLACES.forEach(([city, state, zip, district], i) => {
    const name = `${US_WORDS[i] ?? 'Union'} ${r.pick(US_KINDS)}`;
    const prefix = i % 3 === 2 ? String(Number(district) + 20) : district;
    const rtn = routingNumber(r, prefix);
    const servicing = routingNumber(r, district);
    const achOnly = i === 4;
    const wireOnly = i === 7;
    const renumbered = i === 10;
    if (!wireOnly) {
      fedach.push({
        routingNumber: rtn,
        officeCode: 'O',
        servicingFrb: servicing,
        recordType: renumbered ? '2' : '1',
        changeDate: `0${r.int(1, 9)}${r.int(10, 28)}25`,
        ...(renumbered ? { newRoutingNumber: routingNumber(r, district) } : {}),
        customerName: name,
        address: `${r.int(1, 999)} ${r.pick(['MAIN', 'MARKET', 'STATE'])} STREET`,
        city,
        state,
        zip,
        zipExtension: r.digits(4),
        phone: `${r.int(201, 989)}${r.digits(7)}`,
        statusCode: '1',
      });
    }
    if (!achOnly) {
      fedwire.push({
        routingNumber: rtn,
        telegraphicName: name.slice(0, 18),
        customerName: name,
        state,
        city,
        fundsTransfer: 'Y',
        settlementOnly: ' ',
        bookEntrySecurities: i % 2 ? 'Y' : 'N',
        revisionDate: `2025${String(r.int(1, 12)).padStart(2, '0')}${r.int(10, 28)}`,
      });
    }
    if (i < 4) {
      const bic = `${bicFor(r, name, 'US')}`;
      csv.push({
        id: `US-${rtn}`,
        country: 'US',
        bankName: name,
        bic,
        routingNumber: rtn,
        transferTypes: 'WIRE',
        networks: 'SWIFT',
        townName: city,
        countrySubDivision: state,
      });
    }
  });
  for (const c of COUNTRIES) {
    const banks = c.code === 'DE' || c.code === 'GB' || c.code === 'FR' ? 3 : 2;
    for (let b = 0; b < banks; b += 1) {
      const name = `${c.words[b % c.words.length] ?? 'Euro'} ${r.pick(c.kinds)}`;
      const bic8 = bicFor(r, name, c.code);
      const bankCode = c.bankCode(r, bic8);
      const offices = c.branchCode ? 2 : 1;
      for (let o = 0; o < offices; o += 1) {
        const branch = c.branchCode?.(r);
        const bic = o === 0 ? bic8 : `${bic8}${r.letters(1)}${r.digits(2)}`;
        const [town, postal] = r.pick(c.towns);
        csv.push({
          country: c.code,
          bankName: name,
          bic,
          bankCode,
          branchCode: branch,
          sortCode: c.code === 'GB' ? branch : undefined,
          participantName:
            c.code === 'GB' ? undefined : `${name} (${c.code === 'CH' ? 'SIC' : 'SCT Inst'})`,
          transferTypes: 'WIRE;SEPA',
          networks: c.code === 'GB' ? 'SWIFT;CHAPS;FPS' : 'SWIFT;TARGET2;SEPA',
          services: 'CREDIT_TRANSFER;INSTANT_CREDIT_TRANSFER',
          addressLine: `${c.street} ${r.int(1, 120)}`,
          townName: town,
          postalCode: postal,
          phoneNumber: `${c.phone} ${r.digits(4)} ${r.digits(4)}`,
          status: b === 2 && o === 1 ? 'INACTIVE' : 'ACTIVE',
        });
        const iban = ibanFromBban(c.code, validBban(r, c, bankCode, branch));
        if (iban) exampleIbans.push({ iban, bic: bic.padEnd(11, 'X') });
      }
    }
  }
  return { fedach, fedwire, csv, exampleIbans };
}

export interface SampleFiles {
  readonly fedach: string;
  readonly fedwire: string;
  readonly csv: string;
}

export function sampleFiles(sample = generateSampleDirectory()): SampleFiles {
  return {
    fedach: `${sample.fedach.map(formatFedachRecord).join('\n')}\n`,
    fedwire: `${sample.fedwire.map(formatFedwireRecord).join('\n')}\n`,
    csv: formatBankCsv(sample.csv),
  };
}

/** Loads the sample through the real importers, only when the directory is empty. */
export async function loadSampleIfEmpty(db: Database): Promise<ImportSummary[] | undefined> {
  const rows = await db.query<{ n: number | string }>('SELECT COUNT(*) AS n FROM bank_directory');
  if (Number(rows[0]?.n ?? 0) > 0) return undefined;
  const files = sampleFiles();
  return [
    await importDirectory(db, parseFedach(files.fedach), {
      source: 'fedach',
      origin: 'sample',
      sample: true,
    }),
    await importDirectory(db, parseFedwire(files.fedwire), {
      source: 'fedwire',
      origin: 'sample',
      sample: true,
    }),
    await importDirectory(db, parseBankCsv(files.csv), {
      source: 'csv',
      origin: 'sample',
      sample: true,
    }),
  ];
}

/** `count` FedACH records with distinct valid routing numbers (benchmarks, large fixtures). */
export function* generateFedachRecords(count: number, seed = SAMPLE_SEED): Generator<FedachRecord> {
  const r = seededRandom(seed);
  const used = new Set<string>();
  const prefixes = [
    '01',
    '02',
    '03',
    '04',
    '05',
    '06',
    '07',
    '08',
    '09',
    '10',
    '11',
    '12',
    '21',
    '22',
    '23',
    '24',
    '25',
    '26',
    '27',
    '28',
    '29',
    '30',
    '31',
    '32',
  ];
  while (used.size < count) {
    const place = r.pick(US_PLACES);
    const rtn = routingNumber(r, r.pick(prefixes));
    if (used.has(rtn)) continue;
    used.add(rtn);
    yield {
      routingNumber: rtn,
      officeCode: r.next() < 0.8 ? 'O' : 'B',
      servicingFrb: '011000015',
      recordType: '1',
      changeDate: '010125',
      customerName: `${r.pick(US_WORDS)} ${r.pick(US_WORDS)} ${r.pick(US_KINDS)}`,
      address: `${r.int(1, 9999)} MAIN STREET`,
      city: place[0],
      state: place[1],
      zip: place[2],
      phone: `${r.int(201, 989)}${r.digits(7)}`,
      statusCode: '1',
    };
  }
}
