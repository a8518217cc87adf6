// The pain.002-style status report of any payment (operator route and CLI): the payment and its status
// history read in one transaction, the report built by the domain.
import { randomBytes } from 'node:crypto';
import type { Database } from '../../shared/db/types.js';
import { PaymentError } from '../domain/errors.js';
import { buildStatusReport, type PaymentStatusReport } from '../domain/status-report.js';
import { findPayment, statusHistory } from '../storage/payments-repo.js';

export { statusReportXml, PAIN_002_NAMESPACE } from '../domain/status-report-xml.js';
export type { PaymentStatusReport } from '../domain/status-report.js';

/** A report message id: STSRPT- and 16 random hex digits (23 of the 35 characters allowed). */
export function newReportMessageId(): string {
  return `STSRPT-${randomBytes(8).toString('hex').toUpperCase()}`;
}

/** The report of payment `id` (any owner's); 404 PAYMENT_NOT_FOUND when there is none. */
export function paymentStatusReport(
  db: Database,
  id: string,
  now: Date,
): Promise<PaymentStatusReport> {
  return db.transaction(async (tx) => {
    const payment = await findPayment(tx, id);
    if (!payment) throw new PaymentError('PAYMENT_NOT_FOUND', `No payment ${id} was found.`);
    const history = await statusHistory(tx, id);
    return buildStatusReport({ payment, history, messageId: newReportMessageId(), now });
  });
}
