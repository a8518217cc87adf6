// Admin view of the identity-provider settings: the form (mode, issuer, audience, discovery URL or
// static keys, algorithms, forwarded claims), a Validate button that shows the keys found and the
// sample token's result, Save (refused while validation fails), the version list and Revert.
import type { FastifyInstance } from 'fastify';
import type { Actor } from '../../admin/actor.js';
import {
  IdpRequestSchema,
  reportOfRefusedRequest,
  type IdentityProviderService,
} from '../../admin/identity-provider/service.js';
import type { IdpValidationReport } from '../../admin/identity-provider/validate.js';
import { AdminError } from '../../admin/errors.js';
import { checked } from '../../admin/http/validate.js';
import { html, type Html } from '../html.js';
import { csrfField, formatTime, page } from '../layout.js';
import { one } from '../http-security.js';
import {
  fieldErrors,
  formValues,
  reportView,
  requestOf,
  settingsForm,
  valuesOf,
  type IdpFormValues,
} from './identity-provider-form.js';
import type { PortalContext } from '../plugin.js';
import type { PortalSession } from '../session-store.js';

export interface IdentityProviderPageServices {
  readonly identityProvider: IdentityProviderService;
}

export function registerIdentityProviderPages(services: IdentityProviderPageServices) {
  return (app: FastifyInstance, portal: PortalContext): void => {
    async function render(
      session: PortalSession,
      actor: Actor,
      input: {
        values?: IdpFormValues;
        errors?: Record<string, string>;
        report?: IdpValidationReport;
        notice?: string;
        alert?: string;
      },
    ): Promise<Html> {
      const [current, versions] = await Promise.all([
        services.identityProvider.current(actor),
        services.identityProvider.versions(actor),
      ]);
      const body = html`<p>
          In force:
          ${
            current.source === 'none'
              ? 'no identity provider'
              : html`${current.source === 'stored' ? `version ${current.version ?? ''}` : 'the configuration file'}${current.settings ? html` — issuer <code>${current.settings.issuer}</code>, mode ${current.settings.mode}` : null}`
          }.
          Saved changes reach every gateway replica within seconds, without a restart.
        </p>
        ${input.report ? reportView(input.report) : null}
        ${settingsForm(session, input.values ?? valuesOf(current.settings), input.errors ?? {})}
        <h2>Versions</h2>
        ${
          versions.length === 0
            ? html`<p>No saved versions yet: the configuration file's settings are in force.</p>`
            : html`<table>
                  <thead>
                    <tr>
                      <th scope="col">Version</th>
                      <th scope="col">Issuer</th>
                      <th scope="col">Mode</th>
                      <th scope="col">Saved</th>
                      <th scope="col">By</th>
                    </tr>
                  </thead>
                  <tbody>
                    ${[...versions].reverse().map(
                      (v) =>
                        html`<tr>
                          <td>
                            ${v.version}${v.revertedFrom !== undefined ? html` <span class="muted">(revert)</span>` : null}
                          </td>
                          <td>
                            ${v.settings ? html`<code>${v.settings.issuer}</code>` : 'configuration file'}
                          </td>
                          <td>${v.settings?.mode ?? '—'}</td>
                          <td>${formatTime(v.createdAt)}</td>
                          <td>${v.createdBy}</td>
                        </tr>`,
                    )}
                  </tbody>
                </table>
                <form method="post" action="/portal/admin/identity-provider/revert">
                  ${csrfField(session)}<button type="submit" class="danger">
                    Revert to the previous version
                  </button>
                </form>`
        }`;
      return page(portal.assets, {
        title: 'Identity provider',
        session,
        body,
        notice: input.notice,
        alert: input.alert,
      });
    }

    app.get('/admin/identity-provider', async (request, reply) => {
      const session = await portal.requireSession(request, reply, 'admin');
      if (session === null) return reply;
      const done = (request.query as { done?: string }).done;
      const notice =
        done === 'saved'
          ? 'Saved as a new version.'
          : done === 'reverted'
            ? 'Reverted: the previous settings are in force again.'
            : undefined;
      return portal.sendPage(
        reply,
        await render(session, session.actor, { ...(notice ? { notice } : {}) }),
      );
    });

    app.post('/admin/identity-provider', async (request, reply) => {
      const ok = await portal.requireForm(request, reply, 'admin');
      if (ok === null) return reply;
      const { session, form } = ok;
      const values = formValues(form);
      const { body, problems } = requestOf(values);
      if (Object.keys(problems).length > 0)
        return portal.sendPage(
          reply,
          await render(session, session.actor, {
            values,
            errors: problems,
            alert: 'Please correct the fields marked below.',
          }),
          400,
        );
      try {
        // Validate first, so a refused save shows the same report as the Validate button. Settings
        // that break their schema get the report of unusable settings, as on the API.
        const request = checked(IdpRequestSchema, body);
        const report = request.ok
          ? await services.identityProvider.validate(session.actor, request.value)
          : reportOfRefusedRequest(request.problems);
        const errors = fieldErrors(report.problems);
        if (one(form, 'intent') !== 'save' || !report.ok)
          return portal.sendPage(
            reply,
            await render(session, session.actor, {
              values,
              report,
              errors,
              ...(one(form, 'intent') === 'save'
                ? { alert: 'Not saved: the gateway could not use these settings (see below).' }
                : {}),
            }),
            one(form, 'intent') === 'save' ? 422 : 200,
          );
        if (request.ok) await services.identityProvider.save(session.actor, request.value);
        return reply.redirect('/portal/admin/identity-provider?done=saved', 303);
      } catch (error) {
        if (!(error instanceof AdminError)) throw error;
        return portal.sendPage(
          reply,
          await render(session, session.actor, {
            values,
            errors: fieldErrors(error.fields),
            alert: error.message,
          }),
          error.status,
        );
      }
    });

    app.post('/admin/identity-provider/revert', async (request, reply) => {
      const ok = await portal.requireForm(request, reply, 'admin');
      if (ok === null) return reply;
      try {
        await services.identityProvider.revert(ok.session.actor);
      } catch (error) {
        if (!(error instanceof AdminError)) throw error;
        return portal.sendPage(
          reply,
          await render(ok.session, ok.session.actor, { alert: error.message }),
          error.status,
        );
      }
      return reply.redirect('/portal/admin/identity-provider?done=reverted', 303);
    });
  };
}
