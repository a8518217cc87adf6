// The business rules are one table (src/payments/domain/rules/table.ts): docs/errors.md lists exactly its
// rows — code, ISO 20022 reason and pointer, in order — and the sites its pointers stand for, and every
// pointer names a field of the payment order in payment-order.yaml.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { readOpenApiDocument } from '../../../src/payments/http/documents.js';
import { SITES } from '../../../src/payments/domain/rules/sites.js';
import { RULES } from '../../../src/payments/domain/rules/table.js';

const ERRORS_MD = readFileSync(path.join(process.cwd(), 'docs', 'errors.md'), 'utf8');

/** The rows of the first markdown table after `marker`, each a list of cells without backticks. */
function tableAfter(marker: string): string[][] {
  const start = ERRORS_MD.indexOf(marker);
  assert.ok(start >= 0, `docs/errors.md has no "${marker}"`);
  const lines = ERRORS_MD.slice(start).split('\n');
  const first = lines.findIndex((l) => l.startsWith('|'));
  const rows: string[][] = [];
  for (const line of lines.slice(first + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .slice(1, -1)
        .split(' | ')
        .map((cell) => cell.trim()),
    );
  }
  return rows;
}
const code = (cell: string | undefined) => /^`([^`]+)`/.exec(cell ?? '')?.[1] ?? cell ?? '';
const codes = (cell: string | undefined) =>
  [...(cell ?? '').matchAll(/`([^`]+)`/g)].map((m) => m[1]);

test('docs/errors.md lists the rule table: every row, code, ISO reason and pointer, in order', () => {
  const documented = tableAfter('**Rule codes**').map(([c, reason, pointer]) =>
    [code(c), reason, code(pointer)].join(' '),
  );
  const table = RULES.map((r) => [r.code, r.isoReason, r.pointer].join(' '));
  const missingFromDocs = table.filter((row) => !documented.includes(row));
  const missingFromTable = documented.filter((row) => !table.includes(row));
  assert.deepEqual(missingFromDocs, [], 'rows of RULES that docs/errors.md does not list');
  assert.deepEqual(missingFromTable, [], 'rows docs/errors.md lists that RULES does not have');
  assert.deepEqual(documented, table, 'the order problems are reported in');
});

test('docs/errors.md lists what every site of a pointer stands for', () => {
  const documented = Object.fromEntries(
    tableAfter('| site | stands for |').map(([site, values]) => [code(site), codes(values)]),
  );
  const sites = Object.fromEntries(Object.entries(SITES).map(([name, v]) => [`{${name}}`, [...v]]));
  assert.deepEqual(documented, sites);
  const used = new Set(RULES.flatMap((r) => r.pointer.match(/\{[A-Za-z]+\}/g) ?? []));
  assert.deepEqual(
    [...used].filter((s) => s !== '{i}' && !(s in sites)),
    [],
    'sites without values',
  );
});

type Schema = { readonly [key: string]: unknown };
const schemas = (readOpenApiDocument('payment-order')['components'] as Schema)['schemas'] as Schema;

/** The schema a JSON pointer reaches from PaymentRecord (`{i}` or a number: an array item). */
function schemaAt(pointer: string): Schema | undefined {
  let schema: Schema | undefined = schemas['PaymentRecord'] as Schema;
  for (const segment of pointer.split('/').slice(1)) {
    while (schema && typeof schema['$ref'] === 'string')
      schema = schemas[schema['$ref'].replace('#/components/schemas/', '')] as Schema | undefined;
    if (!schema) return undefined;
    schema =
      segment === '{i}' || /^\d+$/.test(segment)
        ? (schema['items'] as Schema | undefined)
        : ((schema['properties'] as Schema | undefined)?.[segment] as Schema | undefined);
  }
  return schema;
}

/** Every pointer a rule can report: its pointer with each site filled in. */
function expansions(pointer: string): string[] {
  const site = /\{([A-Za-z]+)\}/.exec(pointer)?.[1];
  if (site === undefined || site === 'i') return [pointer];
  return (SITES[site] ?? []).flatMap((value) => expansions(pointer.replace(`{${site}}`, value)));
}

test('every pointer of the rule table names a field of the payment order in payment-order.yaml', () => {
  const pointers = RULES.flatMap((r) => expansions(r.pointer));
  assert.ok(pointers.length > RULES.length, 'sites expand');
  assert.deepEqual(
    pointers.filter((p) => schemaAt(p) === undefined),
    [],
    'pointers that name no field of PaymentRecord',
  );
});
