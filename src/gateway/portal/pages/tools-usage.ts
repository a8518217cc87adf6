// Admin view of the tool catalogue (approval, security class, title and description overrides; tools held
// back because their definition changed since approval, with the difference and a re-approve button), and
// the usage view (per subscription and tool, last hour or day) for developers (their own) and admins.
import type { FastifyInstance } from 'fastify';
import type { AdminServices } from '../../admin/services.js';
import { ToolPatchSchema, type AdminTool } from '../../admin/tool-settings.js';
import { formatChanges } from '../../catalogue/definition.js';
import { validated } from '../../admin/http/validate.js';
import type { UsageWindow } from '../../usage/store.js';
import { html, type Html } from '../html.js';
import { csrfField, field, page } from '../layout.js';
import { one } from '../http-security.js';
import type { PortalContext } from '../plugin.js';
import type { PortalSession } from '../session-store.js';
import { refusalOf } from './errors.js';

export type ToolsUsageServices = Pick<AdminServices, 'tools' | 'usage' | 'applications'>;

function select(
  name: string,
  label: string,
  id: string,
  options: readonly string[],
  value: string,
): Html {
  return html`<label for="${id}">${label}</label
    ><select id="${id}" name="${name}">
      ${options.map(
        (o) => html`<option value="${o}" ${o === value ? html` selected` : null}>${o}</option>`,
      )}
    </select>`;
}

function toolRow(session: PortalSession, t: AdminTool, errors: Record<string, string>): Html {
  const id = (name: string) => `${t.name}-${name}`;
  return html`<tr>
    <th scope="row">
      <code>${t.name}</code>
      <div class="muted">${t.backend}</div>
    </th>
    <td>
      ${t.approval.state}
      <div class="muted">${t.approval.source}</div>
      ${t.definition.heldBack ? heldBack(session, t) : null}
    </td>
    <td>${t.securityClass}</td>
    <td>
      <form method="post" action="/portal/admin/tools/${t.name}">
        ${csrfField(session)}
        ${select('approval', 'Approval', id('approval'), ['approved', 'revoked'], t.approval.state)}
        ${select('securityClass', 'Security class', id('securityClass'), ['public', 'user', 'optional'], t.securityClass)}
        ${field({ name: id('title'), label: 'Title', value: t.title ?? '', error: errors.title })}
        ${field({ name: id('description'), label: 'Description', type: 'textarea', value: t.description ?? '', error: errors.description })}
        <p><button type="submit" aria-label="Save ${t.name}">Save</button></p>
      </form>
    </td>
  </tr>`;
}

/** A held-back tool: what changed since its definition was approved, and the button that re-approves it. */
function heldBack(session: PortalSession, t: AdminTool): Html {
  return html`<div class="alert" role="status">
    <strong>Held back</strong>: the backend's document changed this tool since it was approved, so
    it is not listed to agents and not callable.
    <ul class="changes">
      ${formatChanges(t.definition.changes, 4000).map((line) => html`<li><code>${line}</code></li>`)}
    </ul>
    <form method="post" action="/portal/admin/tools/${t.name}">
      ${csrfField(session)}
      <input type="hidden" name="reapprove" value="yes" />
      <button type="submit" aria-label="Re-approve ${t.name}">Approve the new definition</button>
    </form>
  </div>`;
}

export function registerToolsUsagePages(services: ToolsUsageServices) {
  return (app: FastifyInstance, portal: PortalContext): void => {
    async function toolsPage(
      session: PortalSession,
      extra: {
        notice?: string;
        alert?: string;
        errorsOf?: { name: string; fields: Record<string, string> };
      },
    ): Promise<Html> {
      const tools = await services.tools.list();
      const body = html`<p>Changes apply to every gateway replica without a restart.</p>
        <table>
          <thead>
            <tr>
              <th scope="col">Tool</th>
              <th scope="col">Approval</th>
              <th scope="col">Class</th>
              <th scope="col">Change</th>
            </tr>
          </thead>
          <tbody>
            ${tools.map((t) => toolRow(session, t, extra.errorsOf?.name === t.name ? extra.errorsOf.fields : {}))}
          </tbody>
        </table>`;
      return page(portal.assets, {
        title: 'Tools',
        session,
        body,
        notice: extra.notice,
        alert: extra.alert,
      });
    }

    app.get('/admin/tools', async (request, reply) => {
      const session = await portal.requireSession(request, reply, 'admin');
      if (session === null) return reply;
      const done = (request.query as { done?: string }).done;
      return portal.sendPage(
        reply,
        await toolsPage(session, done ? { notice: `Tool ${done} saved.` } : {}),
      );
    });

    app.post('/admin/tools/:name', async (request, reply) => {
      const ok = await portal.requireForm(request, reply, 'admin');
      if (ok === null) return reply;
      const { name } = request.params as { name: string };
      const { form, session } = ok;
      const text = (key: string) => {
        const v = one(form, `${name}-${key}`).trim();
        return v === '' ? null : v;
      };
      try {
        // Re-approval of a held-back tool: approving pins its current definition (nothing else changes).
        if (one(form, 'reapprove') === 'yes') {
          await services.tools.update(session.actor, name, { approval: 'approved' });
          return reply.redirect(`/portal/admin/tools?done=${encodeURIComponent(name)}`, 303);
        }
        const before = await services.tools.get(name);
        const patch: Record<string, unknown> = {};
        if (one(form, 'approval') !== before.approval.state) patch.approval = one(form, 'approval');
        if (one(form, 'securityClass') !== before.securityClass)
          patch.securityClass = one(form, 'securityClass');
        if (text('title') !== (before.title ?? null)) patch.title = text('title');
        if (text('description') !== (before.description ?? null))
          patch.description = text('description');
        await services.tools.update(session.actor, name, validated(ToolPatchSchema, patch));
      } catch (error) {
        const refusal = refusalOf(error);
        return portal.sendPage(
          reply,
          await toolsPage(session, {
            alert: refusal.alert,
            errorsOf: { name, fields: refusal.fields },
          }),
          400,
        );
      }
      return reply.redirect(`/portal/admin/tools?done=${encodeURIComponent(name)}`, 303);
    });

    app.get('/usage', async (request, reply) => {
      const session = await portal.requireSession(request, reply);
      if (session === null) return reply;
      const window: UsageWindow =
        (request.query as { window?: string }).window === 'day' ? 'day' : 'hour';
      const subscriptions = await services.applications.visibleSubscriptions(session.actor);
      const byId = new Map(subscriptions.map((s) => [s.id, s]));
      const { rows } = await services.usage.report(session.actor, { window });
      const ms = (v: number | null) => (v === null ? '—' : v.toFixed(1));
      const body = html`<form method="get" action="/portal/usage">
          ${select('window', 'Window', 'usage-window', ['hour', 'day'], window)}
          <button type="submit">Show</button>
        </form>
        ${
          rows.length === 0
            ? html`<p>No calls in the last ${window}.</p>`
            : html`<table>
                <caption class="muted">
                  Last ${window}
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Application</th>
                    <th scope="col">Environment</th>
                    <th scope="col">Tool</th>
                    <th scope="col">Requests</th>
                    <th scope="col">Quota refusals</th>
                    <th scope="col">Errors</th>
                    <th scope="col">p50 ms</th>
                    <th scope="col">p95 ms</th>
                    <th scope="col">avg ms</th>
                  </tr>
                </thead>
                <tbody>
                  ${rows.map((r) => {
                    const s = byId.get(r.subscriptionId);
                    return html`<tr>
                      <td>${s?.application ?? r.subscriptionId}</td>
                      <td>${s?.environment ?? ''}</td>
                      <td><code>${r.tool}</code></td>
                      <td>${r.requests}</td>
                      <td>${r.quotaRefusals}</td>
                      <td>${r.errors}</td>
                      <td>${ms(r.latency.p50Ms)}</td>
                      <td>${ms(r.latency.p95Ms)}</td>
                      <td>${ms(r.latency.avgMs)}</td>
                    </tr>`;
                  })}
                </tbody>
              </table>`
        }`;
      return portal.sendPage(reply, page(portal.assets, { title: 'Usage', session, body }));
    });
  };
}
