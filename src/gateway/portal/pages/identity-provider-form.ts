// The identity-provider form: the stored settings as form values and back (a JWKS that is not JSON is a
// problem of the form itself), the validation report (key ids, sample token) and the form's markup.
import type { IdpSettings } from '../../admin/identity-provider/settings.js';
import type { IdpValidationReport } from '../../admin/identity-provider/validate.js';
import { html, type Html } from '../html.js';
import { csrfField, field } from '../layout.js';
import { one, type FormBody } from '../http-security.js';
import type { PortalSession } from '../session-store.js';

export interface IdpFormValues {
  readonly mode: string;
  readonly issuer: string;
  readonly audience: string;
  readonly discoveryUrl: string;
  readonly jwks: string;
  readonly algorithms: string;
  readonly forwardClaims: string;
  readonly sampleToken: string;
}

const MODES = ['required', 'conditional', 'anonymous'] as const;

export function valuesOf(settings: IdpSettings | undefined): IdpFormValues {
  return {
    mode: settings?.mode ?? 'conditional',
    issuer: settings?.issuer ?? '',
    audience: settings?.audience ?? '',
    discoveryUrl: settings?.discoveryUrl ?? '',
    jwks: settings?.jwks ? JSON.stringify(settings.jwks, null, 2) : '',
    algorithms: settings?.algorithms?.join(', ') ?? '',
    forwardClaims: (settings?.forwardClaims ?? []).map((f) => `${f.claim}=${f.header}`).join('\n'),
    sampleToken: '',
  };
}

/** The request body the service takes; a JWKS that is not JSON is a field problem of the form. */
export function requestOf(values: IdpFormValues): {
  body: Record<string, unknown>;
  problems: Record<string, string>;
} {
  const problems: Record<string, string> = {};
  const settings: Record<string, unknown> = {
    mode: values.mode,
    issuer: values.issuer,
    audience: values.audience,
    forwardClaims: values.forwardClaims
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean)
      .map((line) => {
        const [claim = '', header = ''] = line.split('=').map((s) => s.trim());
        return { claim, header };
      }),
  };
  if (values.discoveryUrl !== '') settings.discoveryUrl = values.discoveryUrl;
  if (values.algorithms !== '')
    settings.algorithms = values.algorithms.split(/[\s,]+/).filter(Boolean);
  if (values.jwks !== '') {
    try {
      settings.jwks = JSON.parse(values.jwks) as unknown;
    } catch {
      problems.jwks = 'Paste a JSON Web Key Set: {"keys": [ … ]}.';
    }
  }
  return {
    body: { settings, ...(values.sampleToken === '' ? {} : { sampleToken: values.sampleToken }) },
    problems,
  };
}

export function fieldErrors(
  problems: readonly { field: string; message: string }[],
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of problems) {
    const name = p.field.replace(/^settings\./, '').replace(/\..*$/, '') || 'issuer';
    out[name] ??= p.message;
  }
  return out;
}

export function reportView(report: IdpValidationReport): Html {
  return html`<section aria-labelledby="report-title" class="${report.ok ? 'notice' : 'alert'}">
    <h2 id="report-title">
      Validation: ${report.ok ? 'the gateway can use these settings' : 'problems found'}
    </h2>
    ${report.issuer ? html`<p>Issuer: <code>${report.issuer}</code>${report.jwksUri ? html`, keys from <code>${report.jwksUri}</code>` : null}</p>` : null}
    ${
      report.keys.length > 0
        ? html`<table>
            <caption>
              Signing keys found
            </caption>
            <thead>
              <tr>
                <th scope="col">Key id (kid)</th>
                <th scope="col">Algorithm</th>
                <th scope="col">Type</th>
                <th scope="col">Usable</th>
              </tr>
            </thead>
            <tbody>
              ${report.keys.map(
                (k) =>
                  html`<tr>
                    <td><code>${k.kid ?? '(none)'}</code></td>
                    <td>${k.alg ?? '—'}</td>
                    <td>${k.kty}${k.crv ? ` ${k.crv}` : ''}</td>
                    <td>${k.usable ? 'yes' : 'no'}</td>
                  </tr>`,
              )}
            </tbody>
          </table>`
        : html`<p>No signing keys found.</p>`
    }
    ${
      report.sampleToken
        ? html`<p>
            Sample token:
            ${report.sampleToken.ok ? html`<strong class="status-approved">accepted</strong> (subject <code>${report.sampleToken.subject ?? ''}</code>)` : html`<strong class="status-rejected">refused</strong>: ${report.sampleToken.error ?? ''}`}
          </p>`
        : null
    }
    ${
      report.problems.length > 0
        ? html`<ul>
            ${report.problems.map((p) => html`<li>${p.field}: ${p.message}</li>`)}
          </ul>`
        : null
    }
  </section>`;
}

export function settingsForm(
  session: PortalSession,
  values: IdpFormValues,
  errors: Record<string, string>,
): Html {
  return html`<form method="post" action="/portal/admin/identity-provider">
    ${csrfField(session)}
    <label for="f-mode">Mode</label>
    <select id="f-mode" name="mode" ${errors.mode ? html` aria-describedby="f-mode-error"` : null}>
      ${MODES.map(
        (m) =>
          html`<option value="${m}" ${m === values.mode ? html` selected` : null}>${m}</option>`,
      )}
    </select>
    ${errors.mode ? html`<div id="f-mode-error" class="field-error">${errors.mode}</div>` : null}
    ${field({ name: 'issuer', label: 'Issuer', type: 'url', value: values.issuer, error: errors.issuer, required: true })}
    ${field({ name: 'audience', label: 'Audience', value: values.audience, error: errors.audience, required: true })}
    ${field({ name: 'discoveryUrl', label: 'Discovery URL', type: 'url', value: values.discoveryUrl, error: errors.discoveryUrl, hint: 'The OpenID discovery document; or leave empty and paste static keys below.' })}
    ${field({ name: 'jwks', label: 'Static keys (JWKS JSON, optional)', type: 'textarea', value: values.jwks, error: errors.jwks })}
    ${field({ name: 'algorithms', label: 'Algorithms (optional, comma-separated)', value: values.algorithms, error: errors.algorithms })}
    ${field({ name: 'forwardClaims', label: 'Forwarded claims (one claim=Header per line)', type: 'textarea', value: values.forwardClaims, error: errors.forwardClaims })}
    ${field({ name: 'sampleToken', label: 'Sample token (optional, checked against the keys)', type: 'textarea', value: values.sampleToken, error: errors.sampleToken })}
    <p class="actions">
      <button type="submit" name="intent" value="validate" class="secondary">Validate</button>
      <button type="submit" name="intent" value="save">Save</button>
    </p>
  </form>`;
}

export function formValues(form: FormBody): IdpFormValues {
  const v = (name: string) => one(form, name).trim();
  return {
    mode: v('mode'),
    issuer: v('issuer'),
    audience: v('audience'),
    discoveryUrl: v('discoveryUrl'),
    jwks: v('jwks'),
    algorithms: v('algorithms'),
    forwardClaims: one(form, 'forwardClaims'),
    sampleToken: v('sampleToken'),
  };
}
