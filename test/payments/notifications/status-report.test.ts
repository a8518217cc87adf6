// Issue 26, "a pain.002-style status report per payment (JSON, and the ISO 20022 XML form) an operator
// can export": the operator route in both media types, the XML parsed back (well-formed, pain.002.001.10
// namespace, the key elements, names with & < > " ' escaped), the ISO status table, and the CLI export.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DOMParser, type Document, type Element } from '@xmldom/xmldom';
import { PAYMENT_STATUSES } from '../../../src/payments/domain/lifecycle.js';
import { ISO_STATUS_OF, isoReason } from '../../../src/payments/domain/iso-status.js';
import { PAIN_002_NAMESPACE, xmlText } from '../../../src/payments/domain/status-report-xml.js';
import { negotiate } from '../../../src/payments/routes/notifications.js';
import { insertPayment } from '../../../src/payments/storage/payments-repo.js';
import type { PaymentOrder } from '../../../src/payments/domain/payment-order.js';
import { openSqlite } from '../../../src/shared/db/sqlite.js';
import { runMigrations } from '../../../src/shared/db/migrations.js';
import { paymentMigrations } from '../../../src/payments/storage/migrations.js';
import { runMain } from '../../helpers/cli-in-process.js';
import {
  forEachStore,
  holdSampleAccounts,
  json,
  openHarness,
  OPERATOR_TOKEN,
  samplePayment,
  send,
  type Harness,
} from '../harness.js';

const operator = { authorization: `Bearer ${OPERATOR_TOKEN}` };
const NOW = new Date('2026-11-25T08:00:00.000Z');
const TRICKY = `Smith & Sons <Ltd> "Q" 'R'`;

/** Parses strictly: any error or warning of the parser fails the test. */
function parseXml(xml: string): Document {
  return new DOMParser({
    onError: (level, message) => {
      throw new Error(`XML ${level}: ${message}`);
    },
  }).parseFromString(xml, 'application/xml');
}

/** The text of the only element at `path` (local names under the pain.002 namespace). */
function at(doc: Document, ...path: string[]): string | undefined {
  let nodes: Element[] = [doc.documentElement as Element];
  for (const name of path) {
    nodes = nodes.flatMap((n) =>
      Array.from(n.childNodes).filter(
        (c): c is Element =>
          c.nodeType === 1 &&
          (c as Element).localName === name &&
          (c as Element).namespaceURI === PAIN_002_NAMESPACE,
      ),
    );
  }
  assert.ok(nodes.length <= 1, `${path.join('/')} occurs ${nodes.length} times`);
  return nodes[0]?.textContent ?? undefined;
}

const TX = ['CstmrPmtStsRpt', 'OrgnlPmtInfAndSts', 'TxInfAndSts'];

test('every service status has one ISO 20022 transaction status; reasons split into Cd and Prtry', () => {
  assert.deepEqual(Object.keys(ISO_STATUS_OF).sort(), [...PAYMENT_STATUSES].sort());
  assert.equal(ISO_STATUS_OF.COMPLETED, 'ACSC');
  assert.equal(ISO_STATUS_OF.PENDING, 'ACSP');
  assert.equal(ISO_STATUS_OF.INITIATED, 'ACCP');
  assert.equal(ISO_STATUS_OF.FAILED, 'RJCT');
  assert.deepEqual(isoReason('AM04'), { code: 'AM04' });
  assert.deepEqual(isoReason('UPDATED'), { proprietary: 'UPDATED' });
  assert.equal(isoReason(null), undefined);
  assert.equal(xmlText(`a&b<c>d"e'f\u0001`), 'a&amp;b&lt;c&gt;d&quot;e&apos;f');
});

test('content negotiation: JSON by default, XML when preferred, 406 otherwise', () => {
  assert.equal(negotiate(undefined), 'json');
  assert.equal(negotiate('*/*'), 'json');
  assert.equal(negotiate('application/xml'), 'xml');
  assert.equal(negotiate('text/xml;q=0.9, application/json;q=0.5'), 'xml');
  assert.equal(negotiate('application/json;q=0.1, application/xml'), 'xml');
  assert.throws(() => negotiate('text/html'), /application\/json or application\/xml/);
});

forEachStore('payment status report', (kind) => {
  let h: Harness;
  before(async () => {
    h = await openHarness(kind, { now: () => NOW });
    await holdSampleAccounts(h.db, 'alice');
  });
  after(async () => h.close());

  async function create(): Promise<string> {
    const res = await send(h, 'alice', 'POST', 'payments', samplePayment());
    assert.equal(res.statusCode, 201, res.body);
    return String(
      (json(res)['paymentInstructionReference'] as Record<string, unknown>)['identification'],
    );
  }
  const setStatus = (id: string, status: string, reason?: string) =>
    send(
      h,
      undefined,
      'POST',
      `/internal/payments/${id}/status`,
      { status, ...(reason ? { reason } : {}) },
      operator,
    );
  const report = (id: string, accept?: string, headers = operator) =>
    send(h, undefined, 'GET', `/internal/payments/${id}/status-report`, undefined, {
      ...headers,
      ...(accept ? { accept } : {}),
    });

  test('JSON: ids, ACSC after settlement, acceptance time and the status history with ISO codes', async () => {
    const id = await create();
    assert.equal((await setStatus(id, 'PENDING')).statusCode, 200);
    assert.equal((await setStatus(id, 'COMPLETED')).statusCode, 200);
    const res = await report(id, 'application/json');
    assert.equal(res.statusCode, 200, res.body);
    assert.match(String(res.headers['content-type']), /^application\/json/);
    assert.match(
      String(res.headers['content-disposition']),
      /attachment; filename=".*pain\.002\.json"/,
    );
    const r = json(res);
    assert.match(
      String((r['groupHeader'] as Record<string, unknown>)['messageId']),
      /^STSRPT-[0-9A-F]{16}$/,
    );
    assert.deepEqual(r['originalGroupInformation'], {
      originalMessageId: id,
      originalMessageNameId: 'pain.001.001.09',
      originalNumberOfTransactions: 1,
      originalControlSum: '125.50',
      groupStatus: 'ACSC',
    });
    const tx = r['transaction'] as Record<string, unknown>;
    assert.equal(tx['transactionStatus'], 'ACSC');
    assert.equal(tx['originalInstructionId'], id);
    assert.equal(tx['acceptanceDateTime'], NOW.toISOString());
    assert.match(String(tx['originalUetr']), /^[0-9a-f-]{36}$/);
    assert.equal(tx['statusReason'], null);
    assert.equal(r['paymentStatus'], 'COMPLETED');
    assert.deepEqual(
      (r['statusHistory'] as Record<string, unknown>[]).map((c) => [
        c['fromStatus'],
        c['toStatus'],
        c['isoStatus'],
      ]),
      [
        [null, 'INITIATED', 'ACCP'],
        ['INITIATED', 'PENDING', 'ACSP'],
        ['PENDING', 'COMPLETED', 'ACSC'],
      ],
    );
  });

  test('XML: a well-formed pain.002.001.10 document with the key elements; RJCT with its reason code', async () => {
    const id = await create();
    assert.equal((await setStatus(id, 'PENDING')).statusCode, 200);
    assert.equal((await setStatus(id, 'FAILED', 'AM04')).statusCode, 200);
    const res = await report(id, 'application/xml');
    assert.equal(res.statusCode, 200, res.body);
    assert.match(String(res.headers['content-type']), /^application\/xml/);
    const doc = parseXml(res.body);
    assert.equal(doc.documentElement?.localName, 'Document');
    assert.equal(doc.documentElement?.namespaceURI, PAIN_002_NAMESPACE);
    assert.equal(PAIN_002_NAMESPACE, 'urn:iso:std:iso:20022:tech:xsd:pain.002.001.10');
    assert.match(at(doc, 'CstmrPmtStsRpt', 'GrpHdr', 'MsgId') ?? '', /^STSRPT-/);
    assert.equal(at(doc, 'CstmrPmtStsRpt', 'GrpHdr', 'CreDtTm'), NOW.toISOString());
    assert.equal(at(doc, 'CstmrPmtStsRpt', 'OrgnlGrpInfAndSts', 'OrgnlMsgId'), id);
    assert.equal(at(doc, 'CstmrPmtStsRpt', 'OrgnlGrpInfAndSts', 'OrgnlMsgNmId'), 'pain.001.001.09');
    assert.equal(at(doc, 'CstmrPmtStsRpt', 'OrgnlGrpInfAndSts', 'GrpSts'), 'RJCT');
    assert.equal(at(doc, 'CstmrPmtStsRpt', 'OrgnlPmtInfAndSts', 'OrgnlPmtInfId'), id);
    assert.equal(at(doc, 'CstmrPmtStsRpt', 'OrgnlPmtInfAndSts', 'PmtInfSts'), 'RJCT');
    assert.equal(at(doc, ...TX, 'OrgnlInstrId'), id);
    assert.equal(at(doc, ...TX, 'TxSts'), 'RJCT');
    assert.equal(at(doc, ...TX, 'StsRsnInf', 'Rsn', 'Cd'), 'AM04');
    assert.equal(at(doc, ...TX, 'AccptncDtTm'), NOW.toISOString());
    assert.equal(at(doc, ...TX, 'OrgnlTxRef', 'Amt', 'InstdAmt'), '125.50');
    assert.equal(at(doc, ...TX, 'OrgnlTxRef', 'DbtrAcct', 'Id', 'IBAN'), 'DE89370400440532013000');
    assert.equal(at(doc, ...TX, 'OrgnlTxRef', 'Cdtr', 'Pty', 'Nm'), 'Ada Lovelace');
    const amount = doc.getElementsByTagNameNS(PAIN_002_NAMESPACE, 'InstdAmt')[0];
    assert.equal(amount?.getAttribute('Ccy'), 'EUR');
  });

  test('XML escaping: party names and references with & < > " \' come back exactly', async () => {
    const id = `PO-20261125-ESCAPE${kind === 'sqlite' ? 'SQL' : 'PGS'}1`;
    const record = samplePayment({
      payerReference: { involvedParty: { partyName: TRICKY } },
      payeeReference: { involvedParty: { partyName: `</Nm><Nm>injected & more` } },
      paymentInstructionReference: { identification: id, externalId: `E2E<&>"'` },
    }) as PaymentOrder;
    await h.db.transaction((tx) =>
      insertPayment(tx, {
        id,
        owner: 'alice',
        status: 'INITIATED',
        record,
        instructedAmount: '125.50',
        instructedCurrency: 'EUR',
        at: NOW.toISOString(),
      }),
    );
    const res = await report(id, 'application/xml');
    assert.equal(res.statusCode, 200, res.body);
    assert.ok(res.body.includes('Smith &amp; Sons &lt;Ltd&gt;'));
    const doc = parseXml(res.body);
    assert.equal(at(doc, ...TX, 'OrgnlTxRef', 'Dbtr', 'Pty', 'Nm'), TRICKY);
    assert.equal(at(doc, ...TX, 'OrgnlTxRef', 'Cdtr', 'Pty', 'Nm'), `</Nm><Nm>injected & more`);
    assert.equal(at(doc, ...TX, 'OrgnlEndToEndId'), `E2E<&>"'`);
    assert.equal(at(doc, ...TX, 'TxSts'), 'ACCP');
  });

  test('refusals: operator token required (401), unknown payment 404, unsupported Accept 406', async () => {
    const id = await create();
    assert.equal((await report(id, undefined, {} as typeof operator)).statusCode, 401);
    const user = await send(h, 'alice', 'GET', `/internal/payments/${id}/status-report`);
    assert.equal(user.statusCode, 401);
    const missing = await report('PO-20261125-NOSUCHPAYMENT');
    assert.equal(missing.statusCode, 404);
    assert.equal(json(missing)['code'], 'PAYMENT_NOT_FOUND');
    const html = await report(id, 'text/html');
    assert.equal(html.statusCode, 406);
    assert.equal(json(html)['code'], 'NOT_ACCEPTABLE');
    assert.match(String(html.headers['content-type']), /^application\/problem\+json/);
  });
});

describe('toolgate payments status-report (CLI export)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'toolgate-status-report-'));
  const configFile = join(dir, 'toolgate.json');
  const env = { TOOLGATE_CONFIG: configFile };
  const id = 'PO-20261125-CLIEXPORT0001';
  before(async () => {
    writeFileSync(configFile, JSON.stringify({ dataDir: '.', logging: { level: 'warn' } }));
    const db = openSqlite({ path: join(dir, 'payments.db') });
    await runMigrations(db, 'payments', paymentMigrations);
    await db.transaction((tx) =>
      insertPayment(tx, {
        id,
        owner: 'alice',
        status: 'INITIATED',
        record: samplePayment({
          payerReference: { involvedParty: { partyName: TRICKY } },
        }) as PaymentOrder,
        instructedAmount: '125.50',
        instructedCurrency: 'EUR',
        at: NOW.toISOString(),
      }),
    );
    await db.close();
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('prints the JSON report by default', async () => {
    const run = await runMain(['payments', 'status-report', id], env);
    assert.equal(run.code, 0, run.stderr);
    const r = JSON.parse(run.stdout) as Record<string, unknown>;
    assert.equal(r['paymentId'], id);
    assert.equal((r['transaction'] as Record<string, unknown>)['transactionStatus'], 'ACCP');
  });

  test('--xml prints the pain.002.001.10 document', async () => {
    const run = await runMain(['payments', 'status-report', id, '--xml'], env);
    assert.equal(run.code, 0, run.stderr);
    const doc = parseXml(run.stdout);
    assert.equal(doc.documentElement?.namespaceURI, PAIN_002_NAMESPACE);
    assert.equal(at(doc, ...TX, 'OrgnlTxRef', 'Dbtr', 'Pty', 'Nm'), TRICKY);
  });

  test('an unknown payment exits 1 naming the code; no id is a usage error (2); --help lists it', async () => {
    const missing = await runMain(['payments', 'status-report', 'PO-NOPE'], env);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /PAYMENT_NOT_FOUND: No payment PO-NOPE was found/);
    assert.equal((await runMain(['payments', 'status-report'], env)).code, 2);
    const help = await runMain(['payments', '--help'], env);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /toolgate payments status-report/);
  });
});
