// The access-request form: its values, how a submitted form becomes the service's input (with the
// problems only the form can tell, like an empty field), and its markup with errors at their fields.
import type { AccessRequestInput } from '../../admin/access-requests.js';
import { ENVIRONMENTS, type Environment } from '../../auth/subscriptions/types.js';
import { html, type Html } from '../html.js';
import { csrfField, field, groupError } from '../layout.js';
import { many, one, type FormBody } from '../http-security.js';
import type { PortalSession } from '../session-store.js';

export interface RequestFormValues {
  readonly application: string;
  readonly ownerName: string;
  readonly ownerEmail: string;
  readonly toolsMode: 'all' | 'some';
  readonly tools: string;
  readonly environments: readonly string[];
  readonly justification: string;
}

export const EMPTY_FORM: RequestFormValues = {
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

export function requestForm(
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
