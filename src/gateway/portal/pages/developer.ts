// The developer view: request access, my applications and requests with their status, collecting the
// keys of an approved request (shown once, with the `mcpServers` block per environment), and usage.
import type { FastifyInstance } from 'fastify';
import type { AdminServices } from '../../admin/services.js';
import type { AccessRequest, AccessRequestInput } from '../../admin/access-requests.js';
import { ENVIRONMENTS, type Environment } from '../../auth/subscriptions/types.js';
import { html, type Html } from '../html.js';
import { csrfField, field, formatTime, groupError, page, statusBadge } from '../layout.js';
import { many, one, type FormBody } from '../http-security.js';
import type { PortalContext } from '../plugin.js';
import type { PortalSession } from '../session-store.js';
import { refusalOf, type Refusal } from './errors.js';
import { validated } from '../../admin/http/validate.js';
import { AccessRequestBody } from '../../admin/routes/schemas.js';
import { subscriptionsTable } from './subscriptions-table.js';

export interface RequestFormValues {
  readonly application: string;
  readonly ownerName: string;
  readonly ownerEmail: string;
  readonly toolsMode: 'all' | 'some';
  readonly tools: string;
  readonly environments: readonly string[];
  readonly justification: string;
}

const EMPTY_FORM: RequestFormValues = {
  application: '',
  ownerName: '',
  ownerEmail: '',
  toolsMode: 'all',
  tools: '',
  environments: ['development'],
  justification: '',
};

/** The form as the service takes it, plus the problems the form itself can tell (field → message). */
export function parseRequestForm(form: FormBody): {
  values: RequestFormValues;
  input: AccessRequestInput;
  problems: Record<string, string>;
} {
  const values: RequestFormValues = {
    application: one(form, 'application').trim(),
    ownerName: one(form, 'owner.name').trim(),
    ownerEmail: one(form, 'owner.email').trim(),
    toolsMode: one(form, 'toolsMode') === 'some' ? 'some' : 'all',
    tools: one(form, 'tools'),
    environments: many(form, 'environments'),
    justification: one(form, 'justification').trim(),
  };
  const tools = values.tools
    .split(/[\s,]+/)
    .map((t) => t.trim())
    .filter(Boolean);
  const problems: Record<string, string> = {};
  if (values.application === '') problems.application = 'Name the application.';
  if (values.ownerName === '') problems['owner.name'] = 'Name the owner.';
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(values.ownerEmail))
    problems['owner.email'] = 'Enter the owner’s e-mail address, like team@example.com.';
  if (values.toolsMode === 'some' && tools.length === 0)
    problems.tools = 'List at least one tool, or choose all tools.';
  const environments = values.environments.filter((e): e is Environment =>
    (ENVIRONMENTS as readonly string[]).includes(e),
  );
  if (environments.length === 0) problems.environments = 'Choose at least one environment.';
  if (values.justification === '') problems.justification = 'Say what the access is for.';
  return {
    values,
    problems,
    input: {
      application: values.application,
      owner: { name: values.ownerName, email: values.ownerEmail },
      tools: values.toolsMode === 'all' ? 'all' : tools,
      environments,
      justification: values.justification,
    },
  };
}

function requestForm(
  session: PortalSession,
  values: RequestFormValues,
  errors: Readonly<Record<string, string>>,
): Html {
  const envError = errors.environments;
  const toolsError = errors.tools;
  return html`<form method="post" action="/portal/request" novalidate>
${csrfField(session)}
${field({ name: 'application', label: 'Application', value: values.application, error: errors.application, required: true, hint: 'The agent or service that will call the tools, e.g. invoice-agent.' })}
${field({ name: 'owner.name', label: 'Owner name', value: values.ownerName, error: errors['owner.name'], required: true, autocomplete: 'name' })}
${field({ name: 'owner.email', label: 'Owner e-mail', type: 'email', value: values.ownerEmail, error: errors['owner.email'], required: true, autocomplete: 'email' })}
<fieldset${toolsError ? html` aria-describedby="f-tools-error"` : null}>
<legend>Tools</legend>
<input type="radio" id="tools-all" name="toolsMode" value="all"${values.toolsMode === 'all' ? html` checked` : null}><label for="tools-all">All approved tools</label>
<input type="radio" id="tools-some" name="toolsMode" value="some"${values.toolsMode === 'some' ? html` checked` : null}><label for="tools-some">Only these tools</label>
${field({ name: 'tools', label: 'Tool names (comma-separated, or product:NAME)', value: values.tools, error: toolsError })}
</fieldset>
<fieldset${envError ? html` aria-describedby="f-environments-error"` : null}>
<legend>Environments</legend>
${ENVIRONMENTS.map(
  (env) =>
    html`<input
        type="checkbox"
        id="env-${env}"
        name="environments"
        value="${env}"
        ${values.environments.includes(env) ? html` checked` : null}
      /><label for="env-${env}">${env}</label>`,
)}
${groupError('environments', envError)}
</fieldset>
${field({ name: 'justification', label: 'Justification', type: 'textarea', value: values.justification, error: errors.justification, required: true })}
<p><button type="submit">Request access</button></p>
</form>`;
}

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
            <td>${toolsText(r.approvedTools ?? r.tools)}</td>
            <td>
              ${statusBadge(r.status)}${r.status === 'rejected' && r.decision?.note ? html`<div>Reason: ${r.decision.note}</div>` : null}
            </td>
            <td>${formatTime(r.createdAt)}</td>
            <td>
              ${
                r.status !== 'approved'
                  ? '—'
                  : r.keysCollectedAt !== null
                    ? html`collected ${formatTime(r.keysCollectedAt)}`
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
          <pre id="client-${s.environment}" data-copy-source data-copy-label="Copy client block">
${JSON.stringify(s.mcpServers, null, 2)}</pre>
        </section>`,
    )}
    <p><a href="/portal/applications">Done: back to my applications</a></p>`;
  return page(portal.assets, { title: 'Your keys', session, body });
}

export function registerDeveloperPages(services: AdminServices) {
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
      return portal.sendPage(
        reply,
        page(portal.assets, {
          title: 'Request access',
          session,
          body: requestForm(session, EMPTY_FORM, {}),
        }),
      );
    });

    app.post('/request', async (request, reply) => {
      const ok = await portal.requireForm(request, reply);
      if (ok === null) return reply;
      const { session, form } = ok;
      const { values, input, problems } = parseRequestForm(form);
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
          body: requestForm(session, values, refusal.fields),
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
