// The status report as ISO 20022 XML: a pain.002.001.10 Document (CstmrPmtStsRpt with GrpHdr,
// OrgnlGrpInfAndSts and OrgnlPmtInfAndSts/TxInfAndSts), elements in the order the schema requires, every
// text escaped (pure). The status history has no place in pain.002: it is in the JSON form only.
import type { PaymentStatusReport, ReportedParty, StatusReason } from './status-report.js';

export const PAIN_002_NAMESPACE = 'urn:iso:std:iso:20022:tech:xsd:pain.002.001.10';

/** Text as XML character data: markup characters escaped, characters XML 1.0 forbids removed. */
export function xmlText(value: string): string {
  return value
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/** An element: text content, or child elements (absent children are skipped). */
interface XmlElement {
  readonly name: string;
  readonly attributes?: Readonly<Record<string, string>>;
  readonly text?: string;
  readonly children?: readonly XmlElement[];
}

type Child = XmlElement | undefined;

/** An element with children; undefined when none of them is present (ISO 20022 has no empty elements). */
function el(name: string, ...children: (Child | readonly Child[])[]): XmlElement | undefined {
  const present = children.flat().filter((c): c is XmlElement => c !== undefined);
  return present.length === 0 ? undefined : { name, children: present };
}

/** An element with text; undefined for no text. */
function text(
  name: string,
  value: string | null | undefined,
  attributes?: Readonly<Record<string, string>>,
): XmlElement | undefined {
  return value === null || value === undefined || value === ''
    ? undefined
    : { name, text: value, ...(attributes ? { attributes } : {}) };
}

/** Serialises with two-space indentation, text escaped, one element per line. */
function serialise(e: XmlElement, depth: number): string {
  const pad = '  '.repeat(depth);
  const attrs = Object.entries(e.attributes ?? {})
    .map(([k, v]) => ` ${k}="${xmlText(v)}"`)
    .join('');
  if (e.text !== undefined) return `${pad}<${e.name}${attrs}>${xmlText(e.text)}</${e.name}>\n`;
  const inner = (e.children ?? []).map((c) => serialise(c, depth + 1)).join('');
  return `${pad}<${e.name}${attrs}>\n${inner}${pad}</${e.name}>\n`;
}

function reason(r: StatusReason | null): XmlElement | undefined {
  if (r === null) return undefined;
  return el('StsRsnInf', el('Rsn', text('Cd', r.code), text('Prtry', r.proprietary)));
}

function party(tag: 'Dbtr' | 'Cdtr', p: ReportedParty): Child[] {
  const account =
    p.account === undefined
      ? undefined
      : el(
          `${tag}Acct`,
          el(
            'Id',
            'iban' in p.account
              ? text('IBAN', p.account.iban)
              : el('Othr', text('Id', p.account.other)),
          ),
        );
  return [el(tag, el('Pty', text('Nm', p.name))), account];
}

/** The report as a pain.002.001.10 document (UTF-8, with the XML declaration). */
export function statusReportXml(r: PaymentStatusReport): string {
  const tx = r.transaction;
  const ref = tx.originalTransactionReference;
  const body = el(
    'CstmrPmtStsRpt',
    el(
      'GrpHdr',
      text('MsgId', r.groupHeader.messageId),
      text('CreDtTm', r.groupHeader.creationDateTime),
    ),
    el(
      'OrgnlGrpInfAndSts',
      text('OrgnlMsgId', r.originalGroupInformation.originalMessageId),
      text('OrgnlMsgNmId', r.originalGroupInformation.originalMessageNameId),
      text('OrgnlNbOfTxs', String(r.originalGroupInformation.originalNumberOfTransactions)),
      text('OrgnlCtrlSum', r.originalGroupInformation.originalControlSum),
      text('GrpSts', r.originalGroupInformation.groupStatus),
    ),
    el(
      'OrgnlPmtInfAndSts',
      text('OrgnlPmtInfId', r.originalPaymentInformation.originalPaymentInformationId),
      text('PmtInfSts', r.originalPaymentInformation.paymentInformationStatus),
      el(
        'TxInfAndSts',
        text('StsId', tx.statusId),
        text('OrgnlInstrId', tx.originalInstructionId),
        text('OrgnlEndToEndId', tx.originalEndToEndId),
        text('OrgnlUETR', tx.originalUetr),
        text('TxSts', tx.transactionStatus),
        reason(tx.statusReason),
        text('AccptncDtTm', tx.acceptanceDateTime),
        el(
          'OrgnlTxRef',
          ref.amount === null
            ? undefined
            : el('Amt', text('InstdAmt', ref.amount.value, { Ccy: ref.amount.currency })),
          el('ReqdExctnDt', text('Dt', ref.requestedExecutionDate)),
          party('Dbtr', ref.debtor),
          party('Cdtr', ref.creditor),
        ),
      ),
    ),
  );
  const document: XmlElement = {
    name: 'Document',
    attributes: { xmlns: PAIN_002_NAMESPACE },
    children: body ? [body] : [],
  };
  return `<?xml version="1.0" encoding="UTF-8"?>\n${serialise(document, 0)}`;
}
