// The developer view: request access, my applications and requests with their status, and collecting
// the keys of an approved request (shown once, with the `mcpServers` block per environment).
import type { FastifyInstance } from 'fastify';
import type { AdminServices } from '../../admin/services.js';
import type { AccessRequest } from '../../admin/access-requests.js';
import { html, type Html } from '../html.js';
import { csrfField, formatTime, page, statusBadge } from '../layout.js';
import type { PortalContext } from '../plugin.js';
import type { PortalSession } from '../session-store.js';
import { refusalOf, type Refusal } from './errors.js';
import { validated } from '../../admin/http/validate.js';
import { AccessRequestBody } from '../../admin/routes/schemas.js';
import { subscriptionsTable } from './subscriptions-table.js';
import {
  bundleChoices,
  newRequestForm,
  parseRequestForm,
  requestForm,
  type BundleChoice,
} from './request-form.js';
import { gatewayUrlKey } from '../../admin/gateway-urls.js';
import type { FrozenConfig } from '../../../config/schema.js';
import { loadDeveloperCatalogue } from './catalogue.js';
import { many } from '../http-security.js';

function requestsTable(session: PortalSession, requests: readonly AccessRequest[]): Html {
  if (requests.length === 0)
    return html`<p>No access requests yet. <a href="/portal/request">Request access</a>.</p>`;
  return html`<table>
    <caption class="muted">
      Your access requests
    </caption>
    <thead>
      <tr>
        <th scope="col">Application</th>
        <th scope="col">Environments</th>
        <th scope="col">Tools</th>
        <th scope="col">Status</th>
        <th scope="col">Requested</th>
        <th scope="col">Keys</th>
      </tr>
    </thead>
    <tbody>
      ${requests.map(
        (r) =>
          html`<tr>
            <td>${r.application}</td>
            <td>${r.environments.join(', ')}</td>
            <td>
              ${toolsText(r.approvedTools ?? r.tools)}${r.bundles === null ? null : html` <span class="muted">(bundle ${r.bundles.join(', ')})</span>`}
            </td>
            <td>
              ${statusBadge(r.status)}${r.status === 'rejected' && r.decision?.note ? html`<div>Reason: ${r.decision.note}</div>` : null}
            </td>
            <td>${formatTime(r.createdAt)}</td>
            <td>
              ${
                r.status !== 'approved'
                  ? '—'
                  : r.keysCollectedAt !== null
                    ? html`Collected ${formatTime(r.keysCollectedAt)}`
                    : html`<form method="post" action="/portal/requests/${r.id}/keys">
                        ${csrfField(session)}<button
                          type="submit"
                          aria-label="Collect keys for ${r.application}"
                        >
                          Collect keys
                        </button>
                      </form>`
              }
            </td>
          </tr>`,
      )}
    </tbody>
  </table>`;
}

export function toolsText(tools: readonly string[] | 'all' | null): string {
  return tools === null || tools === 'all' ? 'all approved tools' : tools.join(', ');
}

function collectedPage(
  portal: PortalContext,
  session: PortalSession,
  collected: Awaited<ReturnType<AdminServices['accessRequests']['collectKeys']>>,
): Html {
  const body = html`<p class="alert" role="alert">
      <strong>Copy these keys now.</strong> They are shown only once; afterwards the portal shows
      them masked (…1234). An administrator can rotate a lost key.
    </p>
    ${collected.subscriptions.map(
      (s) =>
        html`<section aria-labelledby="env-${s.environment}">
          <h2 id="env-${s.environment}">${s.environment}</h2>
          <dl>
            <dt>Primary key</dt>
            <dd>
              <code
                class="secret"
                id="key-${s.environment}-primary"
                data-copy-source
                data-copy-label="Copy primary key"
                >${s.primaryKey}</code
              >
            </dd>
            <dt>Secondary key</dt>
            <dd>
              <code
                class="secret"
                id="key-${s.environment}-secondary"
                data-copy-source
                data-copy-label="Copy secondary key"
                >${s.secondaryKey}</code
              >
            </dd>
          </dl>
          <h3>Client configuration (mcpServers)</h3>
          ${
            s.mcpServers === null
              ? html`<p class="alert" id="client-${s.environment}" role="alert">
                  No gateway is configured for ${s.environment}: this portal does not know where
                  ${s.environment} keys are used, so it shows no client block (the local gateway
                  would refuse them). Ask an administrator for the ${s.environment} gateway’s URL,
                  or to set
                  <code>${gatewayUrlKey(s.environment)}</code>. Keep the key meanwhile: it is shown
                  only once.
                </p>`
              : html`<pre
                    id="client-${s.environment}"
                    data-copy-source
                    data-copy-label="Copy client block"
                  >
${JSON.stringify(s.mcpServers, null, 2)}</pre>
                  <p>
                    Try a tool with this key: <a href="/portal/catalogue">open the catalogue</a> and
                    choose “Try it”.
                  </p>`
          }
        </section>`,
    )}
    <p><a href="/portal/applications">Done: back to my applications</a></p>`;
  return page(portal.assets, { title: 'Your keys', session, body });
}

/** `?bundle=NAME` when it names a configured bundle, else '' (none). */
function bundleOf(query: unknown, bundles: readonly BundleChoice[]): string {
  const asked = (query as { bundle?: unknown } | undefined)?.bundle;
  return typeof asked === 'string' && bundles.some((b) => b.name === asked) ? asked : '';
}

export function registerDeveloperPages(services: AdminServices, config: FrozenConfig) {
  const bundles = bundleChoices(config.gateway.bundles);
  return (app: FastifyInstance, portal: PortalContext): void => {
    app.get('/applications', async (request, reply) => {
      const session = await portal.requireSession(request, reply);
      if (session === null) return reply;
      const [requests, subscriptions] = await Promise.all([
        services.accessRequests.list(session.actor),
        services.applications.visibleSubscriptions(session.actor),
      ]);
      const mine =
        session.actor.role === 'admin'
          ? requests.filter((r) => r.requester === session.actor.subject)
          : requests;
      const done = (request.query as { done?: string }).done;
      const body = html`${requestsTable(session, mine)}
        <h2>Subscriptions</h2>
        ${subscriptionsTable(session, subscriptions, { admin: false })}`;
      return portal.sendPage(
        reply,
        page(portal.assets, {
          title: 'My applications',
          session,
          body,
          notice: done === 'requested' ? 'Your access request was sent for approval.' : undefined,
        }),
      );
    });

    app.get('/request', async (request, reply) => {
      const session = await portal.requireSession(request, reply);
      if (session === null) return reply;
      const catalogue = await loadDeveloperCatalogue(services, config);
      // `?tools=NAME` (from a catalogue page) ticks those tools; names the catalogue lacks are ignored.
      const picked = many(request.query as Record<string, string | string[]>, 'tools').filter(
        (t) => catalogue.byName.has(t) || catalogue.products.some((p) => `product:${p.name}` === t),
      );
      return portal.sendPage(
        reply,
        page(portal.assets, {
          title: 'Request access',
          session,
          body: requestForm(
            session,
            // `?bundle=NAME` preselects a configured tool bundle (issue 28).
            newRequestForm(session, picked, bundleOf(request.query, bundles)),
            {},
            catalogue,
            bundles,
          ),
        }),
      );
    });

    app.post('/request', async (request, reply) => {
      const ok = await portal.requireForm(request, reply);
      if (ok === null) return reply;
      const { session, form } = ok;
      const catalogue = await loadDeveloperCatalogue(services, config);
      const { values, input, problems } = parseRequestForm(form, catalogue, bundles);
      let refusal: Refusal | undefined;
      if (Object.keys(problems).length > 0)
        refusal = { alert: 'Please correct the fields marked below.', fields: problems };
      else {
        try {
          // The admin API's own request schema: the portal accepts exactly what the API accepts.
          await services.accessRequests.create(session.actor, validated(AccessRequestBody, input));
          return reply.redirect('/portal/applications?done=requested', 303);
        } catch (error) {
          refusal = refusalOf(error);
          if ((error as { code?: string }).code === 'APPLICATION_NAME_TAKEN')
            refusal = { alert: refusal.alert, fields: { application: refusal.alert } };
        }
      }
      return portal.sendPage(
        reply,
        page(portal.assets, {
          title: 'Request access',
          session,
          alert: refusal.alert,
          body: requestForm(session, values, refusal.fields, catalogue, bundles),
        }),
        400,
      );
    });

    app.post('/requests/:id/keys', async (request, reply) => {
      const ok = await portal.requireForm(request, reply);
      if (ok === null) return reply;
      const { id } = request.params as { id: string };
      try {
        const collected = await services.accessRequests.collectKeys(ok.session.actor, id);
        reply.header('Cache-Control', 'no-store');
        return portal.sendPage(reply, collectedPage(portal, ok.session, collected));
      } catch (error) {
        const refusal = refusalOf(error);
        return portal.sendPage(
          reply,
          page(portal.assets, {
            title: 'Keys not shown',
            session: ok.session,
            alert: refusal.alert,
            body: html`<p><a href="/portal/applications">Back to my applications</a></p>`,
          }),
          409,
        );
      }
    });
  };
}
