// Admin view of the tool catalogue as a list (name, backend, approval, security class, held back) with a
// detail page per tool: its operation, the form (approval, security class, title and description
// overrides) and, for a tool held back because its definition changed since approval, the difference and
// the button that re-approves it.
import type { FastifyInstance } from 'fastify';
import type { AdminServices } from '../../admin/services.js';
import { ToolPatchSchema, type AdminTool } from '../../admin/tool-settings.js';
import { formatChanges } from '../../catalogue/definition.js';
import { validated } from '../../admin/http/validate.js';
import { html, type Html } from '../html.js';
import { csrfField, field, formatTime, page } from '../layout.js';
import { one } from '../http-security.js';
import type { PortalContext } from '../plugin.js';
import type { PortalSession } from '../session-store.js';
import { refusalOf } from './errors.js';
import { capitalised, securityClassLabel } from '../format.js';

const CURRENT = '/portal/admin/tools';

export function select(
  name: string,
  label: string,
  id: string,
  options: readonly (string | readonly [string, string])[],
  value: string,
): Html {
  return html`<label for="${id}">${label}</label
    ><select id="${id}" name="${name}">
      ${options.map((o) => {
        const [v, text] = typeof o === 'string' ? [o, o] : o;
        return html`<option value="${v}" ${v === value ? html` selected` : null}>${text}</option>`;
      })}
    </select>`;
}

function approvalText(t: AdminTool): Html {
  if (t.definition.heldBack) return html`<span class="status-suspended">Held back</span>`;
  return html`<span class="status-${t.approval.state === 'approved' ? 'active' : 'revoked'}"
    >${capitalised(t.approval.state)}</span
  >`;
}

function toolsList(tools: readonly AdminTool[]): Html {
  return html`<table class="stack">
    <thead>
      <tr>
        <th scope="col">Tool</th>
        <th scope="col">Backend</th>
        <th scope="col">Approval</th>
        <th scope="col">Security class</th>
      </tr>
    </thead>
    <tbody>
      ${tools.map(
        (t) =>
          html`<tr>
            <th scope="row" data-label="Tool">
              <a href="/portal/admin/tools/${t.name}"><code>${t.name}</code></a>
              ${t.title ? html`<div class="muted">${t.title}</div>` : null}
            </th>
            <td data-label="Backend">
              ${t.backend}
              ${
                t.upstreamTool === undefined
                  ? null
                  : html`<div class="muted">MCP: <code>${t.upstreamTool}</code></div>`
              }
            </td>
            <td data-label="Approval">${approvalText(t)}</td>
            <td data-label="Security class">${securityClassLabel(t.securityClass)}</td>
          </tr>`,
      )}
    </tbody>
  </table>`;
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

function toolDetail(session: PortalSession, t: AdminTool, errors: Record<string, string>): Html {
  const id = (name: string) => `${t.name}-${name}`;
  return html`<p><a href="/portal/admin/tools">All tools</a></p>
    ${t.definition.heldBack ? heldBack(session, t) : null}
    <dl class="facts">
      <dt>Backend</dt>
      <dd>${t.backend}</dd>
      <dt>${t.operation ? 'Operation' : 'Upstream tool'}</dt>
      <dd>
        <code
          >${t.operation ? `${t.operation.method.toUpperCase()} ${t.operation.path}` : (t.upstreamTool ?? '')}</code
        >
      </dd>
      <dt>Approval</dt>
      <dd>
        ${approvalText(t)}
        <span class="muted"
          >(${t.approval.source === 'configuration' ? 'from configuration' : 'stored'}${
            t.approval.updatedAt
              ? `, ${formatTime(t.approval.updatedAt)} by ${t.approval.updatedBy ?? 'unknown'}`
              : ''
          })</span
        >
      </dd>
      <dt>Security class</dt>
      <dd>${securityClassLabel(t.securityClass)}</dd>
      ${
        t.hiddenArguments.length > 0
          ? html`<dt>Hidden arguments</dt>
              <dd>${t.hiddenArguments.map((a) => html`<code>${a}</code> `)}</dd>`
          : null
      }
    </dl>
    <h2>Change</h2>
    <p class="muted">Changes apply to every gateway replica without a restart.</p>
    <form method="post" action="/portal/admin/tools/${t.name}">
      ${csrfField(session)}
      ${select(
        'approval',
        'Approval',
        id('approval'),
        [
          ['approved', 'Approved'],
          ['revoked', 'Revoked'],
        ],
        t.approval.state,
      )}
      ${select(
        'securityClass',
        'Security class',
        id('securityClass'),
        [
          ['public', 'Public'],
          ['user', 'User-scoped'],
          ['optional', 'Optional'],
        ],
        t.securityClass,
      )}
      ${field({ name: id('title'), label: 'Title', value: t.title ?? '', error: errors.title })}
      ${field({ name: id('description'), label: 'Description', type: 'textarea', value: t.description ?? '', error: errors.description })}
      <p><button type="submit" aria-label="Save ${t.name}">Save</button></p>
    </form>`;
}

export function registerAdminToolPages(services: Pick<AdminServices, 'tools'>) {
  return (app: FastifyInstance, portal: PortalContext): void => {
    app.get('/admin/tools', async (request, reply) => {
      const session = await portal.requireSession(request, reply, 'admin');
      if (session === null) return reply;
      const done = (request.query as { done?: string }).done;
      const tools = await services.tools.list();
      const held = tools.filter((t) => t.definition.heldBack).length;
      const body = html`${
        held > 0
          ? html`<p class="alert" role="status">
              <strong>Held back</strong>: ${held} ${held === 1 ? 'tool' : 'tools'} changed in the
              backend since approval; open ${held === 1 ? 'it' : 'each'} to review the difference.
            </p>`
          : null
      }
      ${toolsList(tools)}`;
      return portal.sendPage(
        reply,
        page(portal.assets, {
          title: 'Tools',
          session,
          body,
          notice: done ? `Tool ${done} saved.` : undefined,
        }),
      );
    });

    app.get('/admin/tools/:name', async (request, reply) => {
      const session = await portal.requireSession(request, reply, 'admin');
      if (session === null) return reply;
      const { name } = request.params as { name: string };
      try {
        const tool = await services.tools.get(name);
        return portal.sendPage(
          reply,
          page(portal.assets, {
            title: `Tool ${tool.name}`,
            session,
            current: CURRENT,
            body: toolDetail(session, tool, {}),
          }),
        );
      } catch (error) {
        return portal.sendPage(
          reply,
          page(portal.assets, {
            title: 'Tool not found',
            session,
            current: CURRENT,
            alert: refusalOf(error).alert,
            body: html`<p><a href="/portal/admin/tools">All tools</a></p>`,
          }),
          404,
        );
      }
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
        const tool = await services.tools.get(name).catch(() => undefined);
        return portal.sendPage(
          reply,
          page(portal.assets, {
            title: tool ? `Tool ${tool.name}` : 'Tool not found',
            session,
            current: CURRENT,
            alert: refusal.alert,
            body: tool ? toolDetail(session, tool, refusal.fields) : html``,
          }),
          400,
        );
      }
      return reply.redirect(`/portal/admin/tools?done=${encodeURIComponent(name)}`, 303);
    });
  };
}
