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

type Node = string | readonly Node[] | undefined | null | false;

/** An element with content (children or text); omitted when it has no content. */
function el(name: string, ...children: Node[]): string {
  const content = flatten(children).join('');
  return content === '' ? '' : `<${name}>${content}</${name}>`;
}

const text = (name: string, value: string | null | undefined): string =>
  value === null || value === undefined || value === ''
    ? ''
    : `<${name}>${xmlText(value)}</${name}>`;

function flatten(nodes: readonly Node[]): string[] {
  const out: string[] = [];
  for (const n of nodes) {
    if (typeof n === 'string') out.push(n);
    else if (Array.isArray(n)) out.push(...flatten(n as readonly Node[]));
  }
  return out;
}

function reason(r: StatusReason | null): string {
  if (r === null) return '';
  return el('StsRsnInf', el('Rsn', text('Cd', r.code), text('Prtry', r.proprietary)));
}

function party(tag: 'Dbtr' | 'Cdtr', p: ReportedParty): string {
  const account =
    p.account === undefined
      ? ''
      : el(
          `${tag}Acct`,
          el(
            'Id',
            'iban' in p.account
              ? text('IBAN', p.account.iban)
              : el('Othr', text('Id', p.account.other)),
          ),
        );
  return el(tag, el('Pty', text('Nm', p.name))) + account;
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
            ? ''
            : el(
                'Amt',
                `<InstdAmt Ccy="${xmlText(ref.amount.currency)}">${xmlText(ref.amount.value)}</InstdAmt>`,
              ),
          el('ReqdExctnDt', text('Dt', ref.requestedExecutionDate)),
          party('Dbtr', ref.debtor),
          party('Cdtr', ref.creditor),
        ),
      ),
    ),
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<Document xmlns="${PAIN_002_NAMESPACE}">${body}</Document>\n`;
}
