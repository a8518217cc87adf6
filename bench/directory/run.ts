// Bank directory benchmarks (not part of `npm test`): import of 100,000 FedACH records (time, peak
// memory), look-up by code p50/p99 over 100,000 entries, import of 100,000 Fedwire records with the
// real files' blank fields and flag combinations, fuzzy name search over 20,000 entries.
// SQLite always (a real file: WAL, synchronous=FULL); PostgreSQL too when DATABASE_URL is set.
// Usage: npx tsc -p . && node dist/bench/directory/run.js [--json]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqlite } from '../../src/shared/db/sqlite.js';
import { openPostgres } from '../../src/shared/db/postgres.js';
import { runMigrations } from '../../src/shared/db/migrations.js';
import type { Database } from '../../src/shared/db/types.js';
import { directoryMigrations } from '../../src/payments/directory/migrations.js';
import { importDirectory } from '../../src/payments/directory/import.js';
import { formatFedachRecord, parseFedach } from '../../src/payments/directory/importers/fedach.js';
import {
  formatFedwireRecord,
  parseFedwire,
} from '../../src/payments/directory/importers/fedwire.js';
import { generateFedachRecords } from '../../src/payments/directory/sample.js';
import { DirectoryStore } from '../../src/payments/directory/store.js';
import { byName, lookupBank } from '../../src/payments/directory/lookup.js';
import { seededRandom } from '../../src/payments/directory/random.js';

const IMPORT_COUNT = 100_000;
const NAME_COUNT = 20_000;
const LOOKUPS = 20_000;
const NAME_QUERIES = 200;

interface Figures {
  store: string;
  importSeconds: number;
  importRecordsPerSecond: number;
  peakRssMiB: number;
  heapUsedAfterImportMiB: number;
  lookupP50Ms: number;
  lookupP99Ms: number;
  fedwireImportSeconds: number;
  peakRssAfterFedwireMiB: number;
  nameSearchColdMs: number;
  nameSearchP50Ms: number;
  nameSearchP99Ms: number;
}

const mib = (bytes: number) => Math.round((bytes / 1048576) * 10) / 10;

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  const value = sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
  return Math.round(value * 1000) / 1000;
}

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const start = process.hrtime.bigint();
  const result = await fn();
  return [result, Number(process.hrtime.bigint() - start) / 1e6];
}

/** Base-26 letters of i: a distinct suffix so every generated bank name is unique (worst case). */
function letters(i: number): string {
  let out = '';
  let n = i;
  do {
    out = String.fromCharCode(65 + (n % 26)) + out;
    n = Math.floor(n / 26);
  } while (n > 0);
  return out;
}

function fedachText(
  count: number,
  seed: number,
  distinctNames = false,
): { text: string; routing: string[] } {
  const routing: string[] = [];
  const lines: string[] = [];
  let i = 0;
  for (const r of generateFedachRecords(count, seed)) {
    routing.push(r.routingNumber);
    const name = distinctNames ? `${r.customerName} ${letters(i)}` : r.customerName;
    lines.push(formatFedachRecord({ ...r, customerName: name }));
    i += 1;
  }
  return { text: `${lines.join('\n')}\n`, routing };
}

/**
 * Fedwire records for the same routing numbers, with what the real file holds: blank revision dates,
 * blank states (foreign participants), securities-only and settlement-only participants.
 */
function fedwireText(count: number, seed: number): string {
  const lines: string[] = [];
  let i = 0;
  for (const r of generateFedachRecords(count, seed)) {
    lines.push(
      formatFedwireRecord({
        routingNumber: r.routingNumber,
        telegraphicName: r.customerName.slice(0, 18),
        customerName: r.customerName,
        state: i % 50 === 0 ? '' : r.state,
        city: r.city,
        fundsTransfer: i % 10 === 0 ? 'N' : 'Y',
        settlementOnly: i % 17 === 0 ? 'S' : ' ',
        bookEntrySecurities: i % 2 === 0 ? 'Y' : 'N',
        revisionDate: i % 3 === 0 ? '' : '20250315',
      }),
    );
    i += 1;
  }
  return `${lines.join('\n')}\n`;
}

async function measure(store: string, open: () => Promise<Database>): Promise<Figures> {
  const { text, routing } = fedachText(IMPORT_COUNT, 7);
  const db = await open();
  try {
    await runMigrations(db, 'bank-directory', directoryMigrations);
    const rssBefore = process.resourceUsage().maxRSS * 1024;
    const [summary, importMs] = await timed(async () =>
      importDirectory(db, parseFedach(text), { source: 'fedach', origin: 'bench', batchSize: 200 }),
    );
    if (summary.imported !== IMPORT_COUNT) throw new Error(`imported ${summary.imported}`);
    const peak = Math.max(rssBefore, process.resourceUsage().maxRSS * 1024);
    const heap = process.memoryUsage().heapUsed;

    const dir = new DirectoryStore(db);
    const rnd = seededRandom(11);
    const lookupSamples: number[] = [];
    for (let i = 0; i < LOOKUPS; i += 1) {
      const rtn = routing[rnd.int(0, routing.length - 1)] ?? '';
      const [outcome, ms] = await timed(() =>
        lookupBank(
          dir,
          { identificationType: 'ROUTING_NUMBER', identificationNumber: rtn },
          { nameThreshold: 0.85 },
        ),
      );
      if (outcome.kind !== 'found') throw new Error(`lookup ${rtn}: ${outcome.kind}`);
      if (i >= 200) lookupSamples.push(ms); // first 200 warm the statement cache / JIT
    }

    // Fedwire import: 100,000 records next to the 100,000 FedACH ones (every record must import).
    const wire = fedwireText(IMPORT_COUNT, 7);
    const [wireSummary, wireMs] = await timed(async () =>
      importDirectory(db, parseFedwire(wire), {
        source: 'fedwire',
        origin: 'bench',
        batchSize: 200,
      }),
    );
    if (wireSummary.imported !== IMPORT_COUNT) {
      throw new Error(`imported ${wireSummary.imported} Fedwire records`);
    }
    const peakAfterWire = process.resourceUsage().maxRSS * 1024;

    // Name search over a 20,000-entry directory with 20,000 distinct names (no grouping benefit).
    await db.exec('DELETE FROM bank_directory');
    const small = fedachText(NAME_COUNT, 13, true);
    await importDirectory(db, parseFedach(small.text), { source: 'fedach', origin: 'bench' });
    const names = (await dir.names()).map((n) => n.nameKey);
    const [, coldMs] = await timed(async () => {
      const fresh = new DirectoryStore(db);
      return byName(fresh, 'Harbor Summit National Bank', undefined);
    });
    const nameSamples: number[] = [];
    for (let i = 0; i < NAME_QUERIES; i += 1) {
      const query = (names[rnd.int(0, names.length - 1)] ?? '')
        .toLowerCase()
        .replace('bank', 'bnk');
      const [found, ms] = await timed(() => byName(dir, query, undefined));
      if (found.length === 0) throw new Error(`no name match for ${query}`);
      nameSamples.push(ms);
    }
    return {
      store,
      importSeconds: Math.round(importMs) / 1000,
      importRecordsPerSecond: Math.round(IMPORT_COUNT / (importMs / 1000)),
      peakRssMiB: mib(peak),
      heapUsedAfterImportMiB: mib(heap),
      lookupP50Ms: percentile(lookupSamples, 50),
      lookupP99Ms: percentile(lookupSamples, 99),
      fedwireImportSeconds: Math.round(wireMs) / 1000,
      peakRssAfterFedwireMiB: mib(peakAfterWire),
      nameSearchColdMs: Math.round(coldMs * 10) / 10,
      nameSearchP50Ms: percentile(nameSamples, 50),
      nameSearchP99Ms: percentile(nameSamples, 99),
    };
  } finally {
    await db.close();
  }
}

async function benchMain(): Promise<void> {
  const results: Figures[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'toolgate-bench-dir-'));
  try {
    results.push(await measure('sqlite', async () => openSqlite({ path: join(dir, 'bench.db') })));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const url = process.env.DATABASE_URL;
  if (url) {
    const schema = `bench_directory_${process.pid}`;
    let db: Database | undefined;
    try {
      results.push(
        await measure('postgres', async () => {
          db = await openPostgres({
            url,
            schema,
            poolSize: 4,
            connectTimeoutMs: 5000,
            statementTimeoutMs: 120000,
          });
          return db;
        }),
      );
    } finally {
      const cleanup = await openPostgres({
        url,
        schema: 'public',
        poolSize: 1,
        connectTimeoutMs: 5000,
        statementTimeoutMs: 30000,
      });
      await cleanup.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await cleanup.close();
    }
  }
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify({ node: process.version, results }));
    return;
  }
  console.log(`node ${process.version}, ${IMPORT_COUNT} FedACH records, ${NAME_COUNT} names`);
  console.table(results);
}

await benchMain();
