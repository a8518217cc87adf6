// Admin view: every subscription with its tools, masked keys, key age under the rotation policy, and the
// actions (suspend, resume; edit the quota and tools on a page of their own; revoke, rotate a key — both
// destructive, so each asks for confirmation first (docs/decisions.md, D-304); a rotated key's new value is shown once).
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AdminServices } from '../../admin/services.js';
import { AdminError } from '../../admin/errors.js';
import type { SubscriptionView } from '../../admin/views.js';
import { html, type Html } from '../html.js';
import { csrfField, page } from '../layout.js';
import type { PortalContext } from '../plugin.js';
import type { PortalSession } from '../session-store.js';
import { refusalOf } from './errors.js';
import { many, one } from '../http-security.js';
import { validated } from '../../admin/http/validate.js';
import { SubscriptionPatchBody } from '../../admin/routes/schemas.js';
import { subscriptionsTable, toolChips } from './subscriptions-table.js';

const CURRENT = '/portal/admin/subscriptions';

const NOTICES: Record<string, string> = {
  suspend: 'The subscription was suspended.',
  resume: 'The subscription was resumed.',
  revoke: 'The subscription was revoked.',
  limits: 'The quota and tools of the subscription were saved.',
};

/** The subscriptions page's answer to a refused action: the reason, and the way back. */
function refused(
  portal: PortalContext,
  reply: FastifyReply,
  session: PortalSession,
  error: unknown,
  status: number,
): FastifyReply {
  return portal.sendPage(
    reply,
    page(portal.assets, {
      title: 'Subscriptions',
      session,
      alert: refusalOf(error).alert,
      body: html`<p><a href="/portal/admin/subscriptions">Back</a></p>`,
    }),
    status,
  );
}

/** The page that asks before a destructive action; its button posts the same action with confirm=yes. */
function confirmPage(
  portal: PortalContext,
  session: PortalSession,
  input: { title: string; consequence: Html; action: string; button: string },
): Html {
  return page(portal.assets, {
    title: input.title,
    session,
    current: CURRENT,
    body: html`<div class="confirm">
      <p>${input.consequence}</p>
      <form method="post" action="${input.action}" class="actions">
        ${csrfField(session)}
        <input type="hidden" name="confirm" value="yes" />
        <button type="submit" class="danger">${input.button}</button>
        <a class="button secondary" href="/portal/admin/subscriptions">Cancel</a>
      </form>
    </div>`,
  });
}

async function findSubscription(
  services: AdminServices,
  session: PortalSession,
  id: string,
): Promise<SubscriptionView | undefined> {
  return (await services.applications.visibleSubscriptions(session.actor)).find((s) => s.id === id);
}

export function registerAdminSubscriptionPages(services: AdminServices) {
  return (app: FastifyInstance, portal: PortalContext): void => {
    app.get('/admin/subscriptions', async (request, reply) => {
      const session = await portal.requireSession(request, reply, 'admin');
      if (session === null) return reply;
      const done = (request.query as { done?: string }).done;
      const subscriptions = await services.applications.visibleSubscriptions(session.actor);
      const policy = await services.keyPolicy.get();
      const body = html`<p>
          Key rotation policy: rotate every ${policy.rotationDays} days, warn ${policy.warnDays}
          days ahead.
        </p>
        ${subscriptionsTable(session, subscriptions, { admin: true })}`;
      return portal.sendPage(
        reply,
        page(portal.assets, {
          title: 'Subscriptions',
          session,
          body,
          notice: done === undefined ? undefined : NOTICES[done],
        }),
      );
    });

    // The quota and tools of one subscription: the catalogue's tools as checkboxes.
    app.get('/admin/subscriptions/:id', async (request, reply) => {
      const session = await portal.requireSession(request, reply, 'admin');
      if (session === null) return reply;
      const { id } = request.params as { id: string };
      const s = await findSubscription(services, session, id);
      if (s === undefined) return refused(portal, reply, session, notFound(id), 404);
      const tools = await services.tools.list();
      const names = [...new Set([...tools.map((t) => t.name), ...(s.tools ?? [])])].sort();
      const chosen = new Set(s.tools ?? []);
      const body = html`<p>Tools today: ${toolChips(s.tools)}</p>
        <form method="post" action="/portal/admin/subscriptions/${s.id}/limits">
          ${csrfField(session)}
          <label for="f-rateLimitPerMinute">Quota per minute</label>
          <div id="f-rateLimitPerMinute-hint" class="muted">
            Empty: the gateway's default quota.
          </div>
          <input
            type="number"
            min="1"
            id="f-rateLimitPerMinute"
            name="rateLimitPerMinute"
            aria-describedby="f-rateLimitPerMinute-hint"
            value="${s.rateLimitPerMinute ?? ''}"
          />
          <fieldset>
            <legend>Tools</legend>
            <p>
              <input
                type="radio"
                id="tools-all"
                name="toolsMode"
                value="all"
                ${s.tools === null ? html`checked` : null}
              /><label for="tools-all" class="inline">All approved tools</label>
              <input
                type="radio"
                id="tools-some"
                name="toolsMode"
                value="some"
                ${s.tools === null ? null : html`checked`}
              /><label for="tools-some" class="inline">Only the tools ticked below</label>
            </p>
            <ul class="checks">
              ${names.map(
                (name) =>
                  html`<li>
                    <input
                      type="checkbox"
                      id="tool-${name}"
                      name="tools"
                      value="${name}"
                      ${chosen.has(name) ? html`checked` : null}
                    /><label for="tool-${name}" class="inline"><code>${name}</code></label>
                  </li>`,
              )}
            </ul>
          </fieldset>
          <p class="actions">
            <button type="submit">Save limits</button>
            <a class="button secondary" href="/portal/admin/subscriptions">Cancel</a>
          </p>
        </form>`;
      return portal.sendPage(
        reply,
        page(portal.assets, {
          title: `Limits of ${s.application} (${s.environment})`,
          session,
          current: CURRENT,
          body,
        }),
      );
    });

    app.post('/admin/subscriptions/:id/:action', async (request, reply) => {
      const ok = await portal.requireForm(request, reply, 'admin');
      if (ok === null) return reply;
      const { id, action } = request.params as { id: string; action: string };
      const status = ({ suspend: 'suspended', resume: 'active', revoke: 'revoked' } as const)[
        action as 'suspend' | 'resume' | 'revoke'
      ];
      if (status === undefined) return reply.code(404).send();
      if (status === 'revoked' && one(ok.form, 'confirm') !== 'yes') {
        const s = await findSubscription(services, ok.session, id);
        if (s === undefined) return refused(portal, reply, ok.session, notFound(id), 404);
        return portal.sendPage(
          reply,
          confirmPage(portal, ok.session, {
            title: `Revoke ${s.application} (${s.environment})?`,
            consequence: html`Its keys stop working at once, for every agent that uses them, and the
            subscription cannot be resumed: the application must ask for access again.`,
            action: `/portal/admin/subscriptions/${s.id}/revoke`,
            button: 'Revoke the subscription',
          }),
        );
      }
      try {
        await services.provisioning.setStatus(ok.session.actor, id, status);
      } catch (error) {
        return refused(portal, reply, ok.session, error, 409);
      }
      return reply.redirect(`/portal/admin/subscriptions?done=${action}`, 303);
    });

    app.post('/admin/subscriptions/:id/limits', async (request, reply) => {
      const ok = await portal.requireForm(request, reply, 'admin');
      if (ok === null) return reply;
      const { id } = request.params as { id: string };
      const limit = one(ok.form, 'rateLimitPerMinute').trim();
      // Checkboxes (one value each) or a comma-separated list, as the admin API takes it.
      const tools = many(ok.form, 'tools')
        .flatMap((v) => v.split(/[\s,]+/))
        .filter(Boolean);
      const all = one(ok.form, 'toolsMode') === 'all' || tools.length === 0;
      try {
        await services.provisioning.update(
          ok.session.actor,
          id,
          // The admin API's schema: the portal accepts exactly what PATCH /subscriptions/{id} does.
          validated(SubscriptionPatchBody, {
            rateLimitPerMinute:
              limit === '' ? null : /^\d{1,9}$/.test(limit) ? Number(limit) : limit,
            tools: all ? null : tools,
          }),
        );
      } catch (error) {
        return refused(portal, reply, ok.session, error, 400);
      }
      return reply.redirect('/portal/admin/subscriptions?done=limits', 303);
    });

    app.post('/admin/subscriptions/:id/keys/:slot/rotate', async (request, reply) => {
      const ok = await portal.requireForm(request, reply, 'admin');
      if (ok === null) return reply;
      const { id, slot } = request.params as { id: string; slot: string };
      if (slot !== 'primary' && slot !== 'secondary') return reply.code(404).send();
      if (one(ok.form, 'confirm') !== 'yes') {
        const s = await findSubscription(services, ok.session, id);
        if (s === undefined) return refused(portal, reply, ok.session, notFound(id), 404);
        const other = slot === 'primary' ? 'secondary' : 'primary';
        return portal.sendPage(
          reply,
          confirmPage(portal, ok.session, {
            title: `Rotate the ${slot} key of ${s.application} (${s.environment})?`,
            consequence: html`The ${slot} key stops working at once and a new one is shown to you
            once. Agents should use the ${other} key while the new one is handed over.`,
            action: `/portal/admin/subscriptions/${s.id}/keys/${slot}/rotate`,
            button: `Rotate the ${slot} key`,
          }),
        );
      }
      try {
        const rotated = await services.provisioning.rotate(ok.session.actor, id, slot);
        reply.header('Cache-Control', 'no-store');
        const body = html`<p class="alert" role="alert">
            <strong>Copy the new ${slot} key now</strong>; it is shown only once. Hand it to the
            application's owner over a safe channel.
          </p>
          <p>
            <code class="secret" data-copy-source data-copy-label="Copy key">${rotated.key}</code>
          </p>
          <p><a href="/portal/admin/subscriptions">Back to subscriptions</a></p>`;
        return portal.sendPage(
          reply,
          page(portal.assets, {
            title: `New ${slot} key for ${rotated.subscription.application} (${rotated.subscription.environment})`,
            session: ok.session,
            current: CURRENT,
            body,
          }),
        );
      } catch (error) {
        return refused(portal, reply, ok.session, error, 409);
      }
    });
  };
}

function notFound(id: string): AdminError {
  return new AdminError('NOT_FOUND', `There is no subscription ${id}.`);
}
