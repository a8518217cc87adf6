// Admin view: every subscription with its masked keys, key age under the rotation policy, and the
// actions (suspend, resume, revoke; rotate a key, whose new value is shown once).
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AdminServices } from '../../admin/services.js';
import { html } from '../html.js';
import { page } from '../layout.js';
import type { PortalContext } from '../plugin.js';
import type { PortalSession } from '../session-store.js';
import { refusalOf } from './errors.js';
import { one } from '../http-security.js';
import { validated } from '../../admin/http/validate.js';
import { SubscriptionPatchBody } from '../../admin/routes/schemas.js';
import { subscriptionsTable } from './subscriptions-table.js';

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

    app.post('/admin/subscriptions/:id/:action', async (request, reply) => {
      const ok = await portal.requireForm(request, reply, 'admin');
      if (ok === null) return reply;
      const { id, action } = request.params as { id: string; action: string };
      const status = ({ suspend: 'suspended', resume: 'active', revoke: 'revoked' } as const)[
        action as 'suspend' | 'resume' | 'revoke'
      ];
      if (status === undefined) return reply.code(404).send();
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
      const tools = one(ok.form, 'tools')
        .split(/[\s,]+/)
        .filter(Boolean);
      try {
        await services.provisioning.update(
          ok.session.actor,
          id,
          // The admin API's schema: the portal accepts exactly what PATCH /subscriptions/{id} does.
          validated(SubscriptionPatchBody, {
            rateLimitPerMinute:
              limit === '' ? null : /^\d{1,9}$/.test(limit) ? Number(limit) : limit,
            tools: tools.length === 0 ? null : tools,
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
            body,
          }),
        );
      } catch (error) {
        return refused(portal, reply, ok.session, error, 409);
      }
    });
  };
}
