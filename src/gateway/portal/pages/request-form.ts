// The access-request form: its values, how a submitted form becomes the service's input (with the
// problems only the form can tell, like an empty field), and its markup with errors at their fields. The
// tools are picked from the developer catalogue (products and tools as checkboxes); the server checks
// every picked name against the catalogue again (issue 27).
import type { AccessRequestInput } from '../../admin/access-requests.js';
import { ENVIRONMENTS, type Environment } from '../../auth/subscriptions/types.js';
import { html, type Html } from '../html.js';
import { csrfField, field, groupError } from '../layout.js';
import { many, one, type FormBody } from '../http-security.js';
import type { PortalSession } from '../session-store.js';
import { unknownNames, type DeveloperCatalogue } from '../catalogue/offered.js';

export interface RequestFormValues {
  readonly application: string;
  readonly ownerName: string;
  readonly ownerEmail: string;
  readonly toolsMode: 'all' | 'some';
  /** Picked tool names and `product:NAME`s. */
  readonly tools: readonly string[];
  readonly environments: readonly string[];
  readonly justification: string;
  /** The tool bundle asked for (issue 28); '' for none (every endpoint). */
  readonly bundle: string;
}

/** A tool bundle the form offers (gateway.bundles): its endpoint is `<mcp path>/<name>`. */
export interface BundleChoice {
  readonly name: string;
  readonly title?: string | undefined;
  readonly description?: string | undefined;
}

/** The configured bundles as the form offers them, sorted by name. */
export function bundleChoices(
  bundles: Readonly<
    Record<
      string,
      { readonly title?: string | undefined; readonly description?: string | undefined }
    >
  >,
): BundleChoice[] {
  return Object.entries(bundles)
    .map(([name, b]) => ({ name, title: b.title, description: b.description }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

export const EMPTY_FORM: RequestFormValues = {
  application: '',
  ownerName: '',
  ownerEmail: '',
  toolsMode: 'all',
  tools: [],
  environments: ['development'],
  justification: '',
  bundle: '',
};

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * A new form for the signed-in user: the owner prefilled from their sign-in (the e-mail address their
 * token carries, else their name or subject), and the tools picked in the catalogue (`?tools=`), if any.
 */
export function newRequestForm(
  session: PortalSession,
  picked: readonly string[],
  bundle = '',
): RequestFormValues {
  const { name, subject } = session.actor;
  const email = name !== undefined && EMAIL.test(name) ? name : '';
  return {
    ...EMPTY_FORM,
    ownerName: name !== undefined && email === '' ? name : subject,
    ownerEmail: email,
    toolsMode: picked.length > 0 ? 'some' : 'all',
    tools: picked,
    bundle,
  };
}

/** The form as the service takes it, plus the problems the form itself can tell (field → message). */
export function parseRequestForm(
  form: FormBody,
  catalogue: DeveloperCatalogue,
  bundles: readonly BundleChoice[] = [],
): {
  values: RequestFormValues;
  input: AccessRequestInput;
  problems: Record<string, string>;
} {
  const values: RequestFormValues = {
    application: one(form, 'application').trim(),
    ownerName: one(form, 'owner.name').trim(),
    ownerEmail: one(form, 'owner.email').trim(),
    toolsMode: one(form, 'toolsMode') === 'some' ? 'some' : 'all',
    tools: [
      ...new Set(
        many(form, 'tools')
          .map((t) => t.trim())
          .filter(Boolean),
      ),
    ],
    environments: many(form, 'environments'),
    justification: one(form, 'justification').trim(),
    bundle: one(form, 'bundle').trim(),
  };
  const problems: Record<string, string> = {};
  if (values.application === '') problems.application = 'Name the application.';
  if (values.ownerName === '') problems['owner.name'] = 'Name the owner.';
  if (!EMAIL.test(values.ownerEmail))
    problems['owner.email'] = 'Enter the owner’s e-mail address, like team@example.com.';
  if (values.toolsMode === 'some') {
    const unknown = unknownNames(catalogue, values.tools);
    if (values.tools.length === 0)
      problems.tools = 'Pick at least one product or tool, or choose all approved tools.';
    else if (unknown.length > 0)
      problems.tools = `Not in the catalogue: ${unknown.join(', ')}. Pick products and tools from the list.`;
  } else if (values.tools.length > 0)
    problems.tools =
      'You picked tools but chose “All approved tools”: choose “Only these tools”, or untick them.';
  const environments = values.environments.filter((e): e is Environment =>
    (ENVIRONMENTS as readonly string[]).includes(e),
  );
  if (environments.length === 0) problems.environments = 'Choose at least one environment.';
  if (values.justification === '') problems.justification = 'Say what the access is for.';
  if (values.bundle !== '' && !bundles.some((b) => b.name === values.bundle))
    problems.bundle = `No tool bundle is named ${values.bundle}: pick one from the list, or none.`;
  return {
    values,
    problems,
    input: {
      application: values.application,
      owner: { name: values.ownerName, email: values.ownerEmail },
      tools: values.toolsMode === 'all' ? 'all' : values.tools,
      environments,
      justification: values.justification,
      ...(values.bundle === '' ? {} : { bundles: [values.bundle] }),
    },
  };
}

function checkbox(id: string, value: string, checked: boolean, label: Html | string): Html {
  return html`<div class="choice">
    <input
      type="checkbox"
      id="${id}"
      name="tools"
      value="${value}"
      ${checked ? html` checked` : null}
    /><label for="${id}">${label}</label>
  </div>`;
}

function toolChoices(catalogue: DeveloperCatalogue, picked: readonly string[]): Html {
  if (catalogue.tools.length === 0) return html`<p class="muted">No tools are offered yet.</p>`;
  return html`${
      catalogue.products.length > 0
        ? html`<p class="muted">Products (every tool of the product):</p>
            ${catalogue.products.map((p) =>
              checkbox(
                `tool-product-${p.name}`,
                `product:${p.name}`,
                picked.includes(`product:${p.name}`),
                html`product ${p.name} <span class="muted">(${p.tools.join(', ')})</span>`,
              ),
            )}`
        : null
    }
    <p class="muted">Tools (<a href="/portal/catalogue">see the catalogue</a>):</p>
    ${catalogue.tools.map((t) =>
      checkbox(
        `tool-${t.name}`,
        t.name,
        picked.includes(t.name),
        html`${t.name} <span class="muted">(${t.securityClass})</span>`,
      ),
    )}`;
}

/**
 * The tool bundle to ask for (issue 28): none (the plain endpoint, every tool the subscription allows), or
 * one bundle, whose endpoint alone the keys will work at. Shown only when bundles are configured.
 */
function bundleChoice(
  bundles: readonly BundleChoice[],
  picked: string,
  error: string | undefined,
): Html | null {
  if (bundles.length === 0) return null;
  const radio = (id: string, value: string, label: Html | string) =>
    html`<div class="choice">
      <input
        type="radio"
        id="${id}"
        name="bundle"
        value="${value}"
        ${picked === value ? html` checked` : null}
      /><label for="${id}">${label}</label>
    </div>`;
  return html`<fieldset${error ? html` aria-describedby="f-bundle-error"` : null}>
    <legend>Tool bundle</legend>
    <p class="muted">
      A bundle is its own MCP endpoint listing only its tools; keys for a bundle work at that endpoint only.
    </p>
    ${radio('bundle-none', '', 'No bundle: the gateway’s MCP endpoint')}
    ${bundles.map((b) =>
      radio(
        `bundle-${b.name}`,
        b.name,
        html`${b.title ?? b.name}
          <span class="muted">(${b.name}${b.description ? html`: ${b.description}` : null})</span>`,
      ),
    )}
    ${groupError('bundle', error)}
  </fieldset>`;
}

export function requestForm(
  session: PortalSession,
  values: RequestFormValues,
  errors: Readonly<Record<string, string>>,
  catalogue: DeveloperCatalogue,
  bundles: readonly BundleChoice[] = [],
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
${toolChoices(catalogue, values.tools)}
${groupError('tools', toolsError)}
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
${bundleChoice(bundles, values.bundle, errors.bundle)}
${field({ name: 'justification', label: 'Justification', type: 'textarea', value: values.justification, error: errors.justification, required: true })}
<p><button type="submit">Request access</button></p>
</form>`;
}
