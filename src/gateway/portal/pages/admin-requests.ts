// Admin view: pending access requests with approve (optionally narrowing tools, setting a quota) and
// reject (with a reason), and the requests decided recently.
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AdminServices } from '../../admin/services.js';
import type { AccessRequest } from '../../admin/access-requests.js';
import { html, type Html } from '../html.js';
import { csrfField, field, formatTime, page, statusBadge } from '../layout.js';
import { one } from '../http-security.js';
import type { PortalContext } from '../plugin.js';
import type { PortalSession } from '../session-store.js';
import { refusalOf } from './errors.js';
import { validated } from '../../admin/http/validate.js';
import { ApprovalBody, RejectionBody } from '../../admin/routes/schemas.js';
import { toolsText } from './developer.js';

const NOTICES: Record<string, string> = {
  approved:
    'The request was approved; its subscriptions are provisioned and the requester can collect the keys.',
  rejected: 'The request was rejected.',
};

function pendingRequest(
  session: PortalSession,
  r: AccessRequest,
  errors: Record<string, string>,
): Html {
  const p = (name: string) => `${r.id}-${name}`;
  return html`<section aria-labelledby="${p('title')}">
    <h2 id="${p('title')}">
      ${r.application} <span class="muted">(${r.environments.join(', ')})</span>
    </h2>
    <p>
      Requested by <strong>${r.owner.name}</strong> &lt;${r.owner.email}&gt; (${r.requester}) on
      ${formatTime(r.createdAt)} for
      ${toolsText(r.tools)}${r.bundles === null ? null : html`, limited to the tool bundle ${r.bundles.join(', ')} (its endpoint only)`}.
    </p>
    <blockquote>${r.justification}</blockquote>
    <div class="actions">
      <form method="post" action="/portal/admin/requests/${r.id}/approve">
        ${csrfField(session)}
        <div>
          ${field({ name: p('tools'), label: 'Narrow tools (optional, comma-separated)', value: '', error: errors.tools })}
        </div>
        <div>
          ${field({ name: p('rateLimitPerMinute'), label: 'Quota per minute (optional)', type: 'number', error: errors.rateLimitPerMinute })}
        </div>
        <div>${field({ name: p('note'), label: 'Note (optional)' })}</div>
        <button type="submit">Approve</button>
      </form>
      <form method="post" action="/portal/admin/requests/${r.id}/reject">
        ${csrfField(session)}
        <div>
          ${field({ name: p('reason'), label: 'Reason for rejecting', required: true, error: errors.reason })}
        </div>
        <button type="submit" class="danger">Reject</button>
      </form>
    </div>
  </section>`;
}

export function registerAdminRequestPages(services: AdminServices) {
  return (app: FastifyInstance, portal: PortalContext): void => {
    async function requestsPage(
      reply: FastifyReply,
      session: PortalSession,
      extra: {
        notice?: string;
        alert?: string;
        errorsOf?: { id: string; fields: Record<string, string> };
      } = {},
      status = 200,
    ) {
      const all = await services.accessRequests.list(session.actor);
      const pending = all.filter((r) => r.status === 'pending');
      const decided = all.filter((r) => r.status !== 'pending').slice(0, 50);
      const body = html`${
          pending.length === 0
            ? html`<p>No pending requests.</p>`
            : pending.map((r) =>
                pendingRequest(
                  session,
                  r,
                  extra.errorsOf?.id === r.id ? extra.errorsOf.fields : {},
                ),
              )
        }
        <h2>Decided recently</h2>
        ${
          decided.length === 0
            ? html`<p>None yet.</p>`
            : html`<table>
                <thead>
                  <tr>
                    <th scope="col">Application</th>
                    <th scope="col">Environments</th>
                    <th scope="col">Status</th>
                    <th scope="col">By</th>
                    <th scope="col">When</th>
                    <th scope="col">Note</th>
                  </tr>
                </thead>
                <tbody>
                  ${decided.map(
                    (r) =>
                      html`<tr>
                        <td>${r.application}</td>
                        <td>${r.environments.join(', ')}</td>
                        <td>${statusBadge(r.status)}</td>
                        <td>${r.decision?.by ?? ''}</td>
                        <td>${formatTime(r.decision?.at)}</td>
                        <td>${r.decision?.note ?? ''}</td>
                      </tr>`,
                  )}
                </tbody>
              </table>`
        }`;
      return portal.sendPage(
        reply,
        page(portal.assets, {
          title: 'Access requests',
          session,
          body,
          notice: extra.notice,
          alert: extra.alert,
        }),
        status,
      );
    }

    app.get('/admin/requests', async (request, reply) => {
      const session = await portal.requireSession(request, reply, 'admin');
      if (session === null) return reply;
      const done = (request.query as { done?: string }).done;
      return requestsPage(reply, session, {
        notice: done === undefined ? undefined : NOTICES[done],
      });
    });

    app.post('/admin/requests/:id/:decision', async (request, reply) => {
      const ok = await portal.requireForm(request, reply, 'admin');
      if (ok === null) return reply;
      const { id, decision } = request.params as { id: string; decision: string };
      const { session, form } = ok;
      const value = (name: string) => one(form, `${id}-${name}`).trim();
      try {
        if (decision === 'approve') {
          const tools = value('tools');
          const limit = value('rateLimitPerMinute');
          if (limit !== '' && !/^[1-9]\d{0,8}$/.test(limit))
            return requestsPage(
              reply,
              session,
              {
                alert: 'Please correct the fields marked below.',
                errorsOf: {
                  id,
                  fields: {
                    rateLimitPerMinute: 'A whole number of requests per minute, at least 1.',
                  },
                },
              },
              400,
            );
          await services.accessRequests.approve(
            session.actor,
            id,
            validated(ApprovalBody, {
              ...(tools === '' ? {} : { tools: tools.split(/[\s,]+/).filter(Boolean) }),
              ...(limit === '' ? {} : { rateLimitPerMinute: Number(limit) }),
              ...(value('note') === '' ? {} : { note: value('note') }),
            }),
          );
          return reply.redirect('/portal/admin/requests?done=approved', 303);
        }
        if (decision === 'reject') {
          const reason = value('reason');
          if (reason === '')
            return requestsPage(
              reply,
              session,
              {
                alert: 'Please correct the fields marked below.',
                errorsOf: { id, fields: { reason: 'Give the requester a reason.' } },
              },
              400,
            );
          await services.accessRequests.reject(
            session.actor,
            id,
            validated(RejectionBody, { reason }).reason,
          );
          return reply.redirect('/portal/admin/requests?done=rejected', 303);
        }
        return reply.code(404).send();
      } catch (error) {
        const refusal = refusalOf(error);
        return requestsPage(
          reply,
          session,
          { alert: refusal.alert, errorsOf: { id, fields: refusal.fields } },
          409,
        );
      }
    });
  };
}
