// The approval page of governed calls (issue 25): /portal/approvals/<id> shows the call in human terms —
// for a payment the amount, payer and payee with their banks from the directory, execution date and the fee
// quote (asked of the payment backend, best effort); for any other tool its arguments as a table — with
// the rule's message and Approve / Reject for whoever the approval's rule allows (CSRF-protected forms).
// /portal/approvals lists the pending approvals the signed-in person may decide.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FrozenConfig } from '../../../config/schema.js';
import type { AdminServices } from '../../admin/services.js';
import { AdminError } from '../../admin/errors.js';
import { approverOf } from '../../admin/approvals.js';
import type { ApprovalRecord } from '../../governance/consent/types.js';
import { decisionRefusal } from '../../governance/consent/who-decides.js';
import { paymentSummary, type PaymentSummary } from '../../governance/consent/payment-view.js';
import {
  lookUpPayment,
  type BankName,
  type PaymentBackend,
  type PaymentContext,
} from '../../governance/consent/payment-lookups.js';
import { html, type Html } from '../html.js';
import { csrfField, field, formatTime, page, statusBadge } from '../layout.js';
import { one, setReturnTo } from '../http-security.js';
import type { PortalContext } from '../plugin.js';
import type { PortalSession } from '../session-store.js';
import { refusalOf } from './errors.js';

const ID = /^apv_[A-Za-z0-9_-]{16,64}$/;
/** How long the page waits for the payment backend's bank names and fee quote. */
const LOOKUP_TIMEOUT_MS = 2000;

const NOTICES: Record<string, string> = {
  approved: 'Approved. The agent can now make this exact call once, before the approval expires.',
  rejected: 'Rejected. The agent is told the call will not be made.',
};

function statusLine(a: ApprovalRecord): Html {
  const by = a.decidedByName ?? a.decidedBy ?? '';
  switch (a.status) {
    case 'pending':
      return html`Waiting for a decision until ${formatTime(a.expiresAt)}.`;
    case 'approved':
      return html`Approved by ${by} at ${formatTime(a.decidedAt)}; the agent may make this exact
      call once, until ${formatTime(a.expiresAt)}.`;
    case 'rejected':
      return html`Rejected by ${by} at
      ${formatTime(a.decidedAt)}${
        a.decisionReason === undefined ? '' : html`: ${a.decisionReason}`
      }.`;
    case 'expired':
      return html`Expired at ${formatTime(a.expiresAt)} without being used; the agent must ask
      again.`;
    case 'used':
      return html`Used at ${formatTime(a.usedAt)}: the call was made. An approval allows it only
      once.`;
  }
}

function formatMoney(amount: string | number, currency: string): string {
  const value = Number(amount);
  if (!Number.isFinite(value)) return `${amount} ${currency}`;
  try {
    return new Intl.NumberFormat('en-GB', { style: 'currency', currency }).format(value);
  } catch {
    return `${amount} ${currency}`;
  }
}

function bank(name: BankName): Html {
  if (name === 'not-found') return html`<span class="muted">(bank not in the directory)</span>`;
  if (name === null) return html`<span class="muted">(bank unavailable)</span>`;
  return html`<span class="bank">${name}</span>`;
}

function paymentView(p: PaymentSummary, context: PaymentContext): Html {
  return html`<section aria-labelledby="payment-title">
    <h2 id="payment-title">Payment</h2>
    <dl class="approval-payment">
      <dt>Amount</dt>
      <dd id="payment-amount"><strong>${formatMoney(p.amount, p.currency)}</strong></dd>
      <dt>From (payer)</dt>
      <dd id="payment-payer">
        ${p.payer.name === undefined ? '' : html`${p.payer.name}, `}<code>${p.payer.account}</code>
        ${bank(context.payerBank)}
      </dd>
      <dt>To (payee)</dt>
      <dd id="payment-payee">
        ${p.payee.name === undefined ? '' : html`${p.payee.name}, `}<code>${p.payee.account}</code>
        ${bank(context.payeeBank)}
      </dd>
      <dt>Execution date</dt>
      <dd id="payment-date">${p.executionDate ?? 'as soon as possible'}</dd>
      ${
        p.chargeBearer === undefined
          ? null
          : html`<dt>Charges</dt>
              <dd>${p.chargeBearer}</dd>`
      }
      <dt>Fees (quote)</dt>
      <dd id="payment-fees">
        ${
          context.fees === null
            ? html`<span class="muted">unavailable</span>`
            : context.fees.length === 0
              ? 'none'
              : context.fees.map(
                  (f, i) =>
                    html`${i > 0 ? ', ' : ''}${formatMoney(f.amount, f.currency)}
                      <span class="muted">(${f.type})</span>`,
                )
        }
      </dd>
    </dl>
  </section>`;
}

/** The arguments as path → value rows (nested objects and lists flattened with dotted paths). */
export function argumentRows(value: unknown, path = ''): [string, string][] {
  if (value !== null && typeof value === 'object') {
    const entries = Array.isArray(value)
      ? value.map((v, i) => [String(i), v] as const)
      : Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) return [[path || '(none)', Array.isArray(value) ? '[]' : '{}']];
    return entries.flatMap(([key, v]) => argumentRows(v, path === '' ? key : `${path}.${key}`));
  }
  return [[path || '(value)', typeof value === 'string' ? value : JSON.stringify(value)]];
}

function argumentsTable(args: Readonly<Record<string, unknown>>): Html {
  const rows = argumentRows(args);
  return html`<section aria-labelledby="arguments-title">
    <h2 id="arguments-title">Arguments</h2>
    <table>
      <thead>
        <tr>
          <th scope="col">Argument</th>
          <th scope="col">Value</th>
        </tr>
      </thead>
      <tbody>
        ${rows.map(
          ([k, v]) =>
            html`<tr>
              <td><code>${k}</code></td>
              <td>${v}</td>
            </tr>`,
        )}
      </tbody>
    </table>
  </section>`;
}

function decisionForms(session: PortalSession, a: ApprovalRecord, reasonError?: string): Html {
  return html`<div class="actions">
    <form method="post" action="/portal/approvals/${a.id}/approve">
      ${csrfField(session)}
      <button type="submit">${a.kind === 'confirm' ? 'Confirm' : 'Approve'}</button>
    </form>
    <form method="post" action="/portal/approvals/${a.id}/reject">
      ${csrfField(session)}
      <div>
        ${field({ name: 'reason', label: 'Reason for rejecting (optional, shown to the agent)', error: reasonError })}
      </div>
      <button type="submit" class="danger">Reject</button>
    </form>
  </div>`;
}

export function registerApprovalPages(services: AdminServices, config: FrozenConfig) {
  const backends = new Map<string, PaymentBackend>(
    config.gateway.backends.flatMap((b) =>
      b.baseUrl === undefined
        ? []
        : [[b.name, { baseUrl: b.baseUrl, injectHeaders: b.injectHeaders }]],
    ),
  );

  async function contextOf(a: ApprovalRecord, summary: PaymentSummary): Promise<PaymentContext> {
    const backend = backends.get(a.details.backend);
    if (backend === undefined) return { payerBank: null, payeeBank: null, fees: null };
    return lookUpPayment(backend, summary, LOOKUP_TIMEOUT_MS);
  }

  return (app: FastifyInstance, portal: PortalContext): void => {
    async function approvalPage(
      reply: FastifyReply,
      session: PortalSession,
      approval: ApprovalRecord,
      extra: { notice?: string | undefined; alert?: string | undefined } = {},
      status = 200,
    ) {
      const summary = paymentSummary(approval.details.arguments);
      const refusal =
        approval.status === 'pending' ? decisionRefusal(approval, approverOf(session.actor)) : null;
      const title =
        approval.kind === 'confirm'
          ? summary === null
            ? 'Confirm a call'
            : 'Confirm a payment'
          : summary === null
            ? 'Approve a call'
            : 'Approve a payment';
      const body = html`<p id="approval-status">
          ${statusBadge(approval.status)} ${statusLine(approval)}
        </p>
        ${
          approval.details.message === undefined
            ? null
            : html`<blockquote id="approval-message">${approval.details.message}</blockquote>`
        }
        <p>
          <strong>${approval.initiator.subject ?? 'An anonymous caller'}</strong> asked, through the
          application
          <strong>${approval.details.application}</strong> (${approval.details.environment}), to
          call <code>${approval.binding.tool}</code> on ${formatTime(approval.createdAt)}.
          ${
            approval.kind === 'approve'
              ? html`A second person with the role
                  <strong>${approval.approverRole ?? ''}</strong> must approve it (four-eyes).`
              : html`Only ${approval.initiator.subject ?? 'the user'} can confirm it.`
          }
        </p>
        ${summary === null ? null : paymentView(summary, await contextOf(approval, summary))}
        ${argumentsTable(approval.details.arguments)}
        ${
          approval.status !== 'pending'
            ? null
            : refusal === null
              ? decisionForms(session, approval)
              : html`<p class="alert" role="alert" id="approval-refusal">${refusal}</p>`
        }
        <p class="muted">
          Approval <code>${approval.id}</code> · call <code>${approval.callId}</code> · rule
          <code>${approval.ruleId ?? '—'}</code> (policy version ${approval.binding.policyVersion})
        </p>
        <p><a href="/portal/approvals">All approvals waiting for you</a></p>`;
      return portal.sendPage(
        reply,
        page(portal.assets, { title, session, body, notice: extra.notice, alert: extra.alert }),
        status,
      );
    }

    function notFound(reply: FastifyReply, session: PortalSession) {
      return portal.sendPage(
        reply,
        page(portal.assets, {
          title: 'Approval not found',
          session,
          alert:
            'There is no such approval, or it is not yours to see. Check the link, or sign in as the person it was sent to.',
          body: html`<p><a href="/portal/approvals">Approvals waiting for you</a></p>`,
        }),
        404,
      );
    }

    async function load(
      request: FastifyRequest,
      reply: FastifyReply,
      session: PortalSession,
    ): Promise<ApprovalRecord | null> {
      const { id } = request.params as { id: string };
      if (!ID.test(id)) {
        await notFound(reply, session);
        return null;
      }
      try {
        return await services.approvals.get(session.actor, id);
      } catch (error) {
        if (error instanceof AdminError && error.code === 'NOT_FOUND') {
          await notFound(reply, session);
          return null;
        }
        throw error;
      }
    }

    app.get('/approvals', async (request, reply) => {
      const session = await portal.requireSession(request, reply);
      if (session === null) return reply;
      const pending = await services.approvals.list(session.actor, 'pending');
      const body =
        pending.length === 0
          ? html`<p>No approvals are waiting for you.</p>`
          : html`<table>
              <thead>
                <tr>
                  <th scope="col">Call</th>
                  <th scope="col">Kind</th>
                  <th scope="col">By</th>
                  <th scope="col">Application</th>
                  <th scope="col">Amount</th>
                  <th scope="col">Expires</th>
                </tr>
              </thead>
              <tbody>
                ${pending.map(
                  (a) =>
                    html`<tr>
                      <td><a href="/portal/approvals/${a.id}">${a.binding.tool}</a></td>
                      <td>${a.kind === 'confirm' ? 'confirmation' : 'four-eyes approval'}</td>
                      <td>${a.initiator.subject ?? 'anonymous'}</td>
                      <td>${a.details.application}</td>
                      <td>
                        ${
                          a.details.money === undefined
                            ? '—'
                            : formatMoney(a.details.money.amount, a.details.money.currency)
                        }
                      </td>
                      <td>${formatTime(a.expiresAt)}</td>
                    </tr>`,
                )}
              </tbody>
            </table>`;
      return portal.sendPage(reply, page(portal.assets, { title: 'Approvals', session, body }));
    });

    app.get('/approvals/:id', async (request, reply) => {
      const { id } = request.params as { id: string };
      // Not signed in: come back here after signing in (the link an agent relayed).
      if (ID.test(id)) setReturnTo(request, reply, `/portal/approvals/${id}`);
      const session = await portal.requireSession(request, reply);
      if (session === null) return reply;
      const approval = await load(request, reply, session);
      if (approval === null) return reply;
      const done = (request.query as { done?: string }).done;
      return approvalPage(reply, session, approval, {
        notice: done === undefined ? undefined : NOTICES[done],
      });
    });

    app.post('/approvals/:id/:decision', async (request, reply) => {
      const ok = await portal.requireForm(request, reply);
      if (ok === null) return reply;
      const { session, form } = ok;
      const { decision } = request.params as { decision: string };
      if (decision !== 'approve' && decision !== 'reject') return reply.code(404).send();
      const approval = await load(request, reply, session);
      if (approval === null) return reply;
      const reason = one(form, 'reason').trim().slice(0, 2000);
      try {
        if (decision === 'approve') await services.approvals.approve(session.actor, approval.id);
        else
          await services.approvals.reject(
            session.actor,
            approval.id,
            reason === '' ? undefined : reason,
          );
        return reply.redirect(
          `/portal/approvals/${approval.id}?done=${decision === 'approve' ? 'approved' : 'rejected'}`,
          303,
        );
      } catch (error) {
        const refusal = refusalOf(error);
        const status = error instanceof AdminError ? error.status : 409;
        const current =
          (await services.approvals.get(session.actor, approval.id).catch(() => null)) ?? approval;
        return approvalPage(reply, session, current, { alert: refusal.alert }, status);
      }
    });
  };
}
