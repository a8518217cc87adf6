// What the approval page asks the payment backend about a payment (issue 25: payer and payee "with their
// bank names from the directory", "the fee quote"): the bank directory (fetchBankDetails, with the backend's
// injected credentials, as a tool call would send them) and the fee quote (fetchPaymentFees, anonymous list
// prices). Best effort: every request has a short timeout and a size cap, and any failure is "unavailable"
// (null) — the page is shown without it, never held up or broken by it.
import { looksLikeIban, type PaymentSummary } from './payment-view.js';

export interface PaymentBackend {
  readonly baseUrl: string;
  readonly injectHeaders: Readonly<Record<string, string>>;
}

export interface FeeLine {
  readonly amount: number;
  readonly currency: string;
  readonly type: string;
}

/** A bank's name; 'not-found' when the directory has no bank for the account; null when unavailable. */
export type BankName = string | 'not-found' | null;

export interface PaymentContext {
  readonly payerBank: BankName;
  readonly payeeBank: BankName;
  readonly fees: readonly FeeLine[] | null;
}

const MAX_BYTES = 256 * 1024;

async function post(
  backend: PaymentBackend,
  path: string,
  body: unknown,
  timeoutMs: number,
): Promise<Record<string, unknown> | 'not-found' | null> {
  try {
    const response = await fetch(`${backend.baseUrl.replace(/\/+$/, '')}${path}`, {
      method: 'POST',
      headers: {
        ...backend.injectHeaders,
        'content-type': 'application/json',
        accept: 'application/json',
      },
      body: JSON.stringify(body),
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    const length = Number(response.headers.get('content-length') ?? '0');
    if (response.status === 404) {
      await response.body?.cancel().catch(() => undefined);
      return 'not-found';
    }
    if (response.status < 200 || response.status >= 300 || length > MAX_BYTES) {
      await response.body?.cancel().catch(() => undefined);
      return null;
    }
    const raw = await response.arrayBuffer();
    if (raw.byteLength > MAX_BYTES) return null;
    const parsed = JSON.parse(Buffer.from(raw).toString('utf8')) as unknown;
    return typeof parsed === 'object' && parsed !== null
      ? (parsed as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

async function bankName(
  backend: PaymentBackend,
  account: string,
  timeoutMs: number,
): Promise<BankName> {
  if (!looksLikeIban(account)) return null;
  const found = await post(
    backend,
    '/payments/fetch-bank-details',
    { identificationNumber: account.replace(/\s+/g, '').toUpperCase(), identificationType: 'IBAN' },
    timeoutMs,
  );
  if (found === 'not-found') return 'not-found';
  const name = found?.['bankName'];
  return typeof name === 'string' && name !== '' ? name : null;
}

async function feeQuote(
  backend: PaymentBackend,
  summary: PaymentSummary,
  timeoutMs: number,
): Promise<FeeLine[] | null> {
  const quote = await post(backend, '/payments/fetch-fees', summary.feeQuery, timeoutMs);
  if (quote === 'not-found') return null;
  const applied = quote?.['appliedFee'];
  if (!Array.isArray(applied)) return null;
  return applied.flatMap((fee: unknown) => {
    const f = fee as Record<string, unknown>;
    return typeof f['amount'] === 'number' && typeof f['currency'] === 'string'
      ? [
          {
            amount: f['amount'],
            currency: f['currency'],
            type: typeof f['type'] === 'string' ? f['type'] : 'FEE',
          },
        ]
      : [];
  });
}

/** The bank names and fee quote of a payment, each null when the backend could not say (in time). */
export async function lookUpPayment(
  backend: PaymentBackend,
  summary: PaymentSummary,
  timeoutMs = 2000,
): Promise<PaymentContext> {
  const [payerBank, payeeBank, fees] = await Promise.all([
    bankName(backend, summary.payer.account, timeoutMs),
    bankName(backend, summary.payee.account, timeoutMs),
    feeQuote(backend, summary, timeoutMs),
  ]);
  return { payerBank, payeeBank, fees };
}
