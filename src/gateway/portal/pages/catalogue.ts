// The developer catalogue (issue 27): `/portal/catalogue` lists the tools and products a developer may
// request, each tool with its description, security class, scopes and an example `tools/call`;
// `/portal/catalogue/tools/<name>` shows one tool; `/portal/catalogue/tools/<name>/try` calls it through
// the gateway with the developer's own key ("Try it").
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { FrozenConfig } from '../../../config/schema.js';
import type { AdminServices } from '../../admin/services.js';
import { gatewayUrlSettings } from '../../admin/services.js';
import { gatewayUrlKey, gatewayUrlOf } from '../../admin/gateway-urls.js';
import { ENVIRONMENTS, type Environment } from '../../auth/subscriptions/types.js';
import type { SecurityClass } from '../../catalogue/types.js';
import { html, type Html } from '../html.js';
import { one } from '../http-security.js';
import { csrfField, page } from '../layout.js';
import type { PortalContext } from '../plugin.js';
import type { PortalSession } from '../session-store.js';
import { exampleCall } from '../catalogue/example-call.js';
import {
  developerCatalogue,
  type DeveloperCatalogue,
  type OfferedTool,
} from '../catalogue/offered.js';
import {
  argumentControls,
  argumentFields,
  argumentsFromForm,
  withValues,
  type ArgumentField,
} from '../catalogue/schema-form.js';
import { tryToolCall, type TryItOptions, type TryItOutcome } from '../catalogue/try-it-client.js';

/** How the docs name each security class, and what it asks of a caller. */
export const SECURITY_CLASS_TEXT: Readonly<Record<SecurityClass, string>> = {
  public: 'the subscription key is enough',
  'user-scoped':
    'acts for a user: needs the user’s token (Authorization: Bearer) as well as the key',
  optional: 'works with the key alone; with a user token it answers for that user',
};

/** Longest accepted pasted key or token (a JWT with many claims stays well below). */
const MAX_CREDENTIAL_CHARS = 8192;

/** The catalogue a developer may request from, as the gateway serves it now. */
export async function loadDeveloperCatalogue(
  services: AdminServices,
  config: FrozenConfig,
): Promise<DeveloperCatalogue> {
  return developerCatalogue(await services.tools.listWithDefinitions(), config.gateway.products);
}

function firstSentence(text: string | undefined): string {
  if (!text) return '';
  const flat = text.replace(/\s+/g, ' ').trim();
  const end = flat.search(/[.!?](\s|$)/);
  return end < 0 ? flat : flat.slice(0, end + 1);
}

function scopesText(tool: OfferedTool): string {
  return tool.scopes.length === 0 ? 'none' : tool.scopes.join(' ');
}

function catalogueBody(catalogue: DeveloperCatalogue): Html {
  if (catalogue.tools.length === 0)
    return html`<p>
      No tools are offered yet: an administrator approves tools before developers can request them.
    </p>`;
  return html`<p>
      These are the tools you can request. <a href="/portal/request">Request access</a> to all of
      them, a product, or some tools; once approved, collect your keys and try a tool here.
    </p>
    ${
      catalogue.products.length > 0
        ? html`<h2>Products</h2>
            <table>
              <thead>
                <tr>
                  <th scope="col">Product</th>
                  <th scope="col">Tools</th>
                </tr>
              </thead>
              <tbody>
                ${catalogue.products.map(
                  (p) =>
                    html`<tr>
                      <td>${p.name}</td>
                      <td>
                        ${p.tools.map(
                          (t, i) =>
                            html`${i > 0 ? ', ' : null}<a href="/portal/catalogue/tools/${t}"
                                >${t}</a
                              >`,
                        )}
                      </td>
                    </tr>`,
                )}
              </tbody>
            </table>`
        : null
    }
    <h2>Tools</h2>
    <table>
      <thead>
        <tr>
          <th scope="col">Tool</th>
          <th scope="col">What it does</th>
          <th scope="col">Security class</th>
          <th scope="col">Scopes</th>
        </tr>
      </thead>
      <tbody>
        ${catalogue.tools.map(
          (t) =>
            html`<tr>
              <td><a href="/portal/catalogue/tools/${t.name}">${t.name}</a></td>
              <td>${firstSentence(t.description ?? t.title)}</td>
              <td>${t.securityClass}</td>
              <td>${scopesText(t)}</td>
            </tr>`,
        )}
      </tbody>
    </table>`;
}

function hints(tool: OfferedTool): string {
  const a = tool.annotations;
  const words = [
    a.readOnlyHint ? 'read-only' : null,
    a.destructiveHint ? 'destructive' : null,
    a.idempotentHint ? 'idempotent' : null,
    a.openWorldHint ? 'reaches outside systems' : null,
  ].filter((w): w is string => w !== null);
  return words.length === 0 ? 'none' : words.join(', ');
}

function toolBody(tool: OfferedTool): Html {
  const example = JSON.stringify(exampleCall(tool.name, tool.inputSchema), null, 2);
  return html`${tool.title ? html`<p><strong>${tool.title}</strong></p>` : null}
    ${tool.description ? html`<p class="description">${tool.description}</p>` : null}
    <dl>
      <dt>Security class</dt>
      <dd>${tool.securityClass}: ${SECURITY_CLASS_TEXT[tool.securityClass]}</dd>
      <dt>Scopes</dt>
      <dd>${scopesText(tool)}</dd>
      <dt>Hints</dt>
      <dd>${hints(tool)}</dd>
      <dt>Products</dt>
      <dd>${tool.products.length === 0 ? 'none' : tool.products.join(', ')}</dd>
      <dt>Backend</dt>
      <dd>
        ${tool.backend}${
          tool.upstreamTool === undefined
            ? null
            : html` (an MCP server; its tool <code>${tool.upstreamTool}</code>)`
        }
      </dd>
    </dl>
    <p>
      <a href="/portal/catalogue/tools/${tool.name}/try">Try it</a> ·
      <a href="/portal/request?tools=${tool.name}">Request access to this tool</a> ·
      <a href="/portal/catalogue">Back to the catalogue</a>
    </p>
    <h2>Example call</h2>
    <p class="muted">
      The JSON-RPC request an agent sends, with the required arguments and example values from the
      tool’s input schema.
    </p>
    <pre id="example-call" data-copy-source data-copy-label="Copy example call">${example}</pre>
    <details>
      <summary>Input schema</summary>
      <pre>${JSON.stringify(tool.inputSchema, null, 2)}</pre>
    </details>`;
}

function notOffered(
  portal: PortalContext,
  session: PortalSession,
  reply: FastifyReply,
  name: string,
) {
  return portal.sendPage(
    reply,
    page(portal.assets, {
      title: 'Tool not found',
      session,
      alert: `The catalogue offers no tool named "${name}".`,
      body: html`<p><a href="/portal/catalogue">Back to the catalogue</a></p>`,
    }),
    404,
  );
}

interface TryItValues {
  readonly environment: string;
  readonly fields: readonly ArgumentField[];
}

/** The environments whose gateway is configured, with its MCP URL. */
function reachableEnvironments(config: FrozenConfig): { environment: Environment; url: string }[] {
  const settings = gatewayUrlSettings(config);
  return ENVIRONMENTS.flatMap((environment) => {
    const url = gatewayUrlOf(settings, environment);
    return url === null ? [] : [{ environment, url }];
  });
}

function tryItBody(
  session: PortalSession,
  tool: OfferedTool,
  config: FrozenConfig,
  values: TryItValues,
  errors: Readonly<Record<string, string>>,
  outcome: Html | null,
): Html {
  const environments = reachableEnvironments(config);
  const missing = ENVIRONMENTS.filter((e) => !environments.some((r) => r.environment === e));
  const action = `/portal/catalogue/tools/${tool.name}/try`;
  const error = (name: string) =>
    errors[name] ? html`<div id="f-${name}-error" class="field-error">${errors[name]}</div>` : null;
  const invalid = (name: string) =>
    errors[name]
      ? html` aria-invalid="true" aria-describedby="f-${name}-hint f-${name}-error"`
      : html` aria-describedby="f-${name}-hint"`;
  const userToken = tool.securityClass !== 'public';
  return html`<p>
      Calls <strong>${tool.name}</strong> through the gateway’s own MCP endpoint with your key, as
      an agent would (${tool.securityClass}: ${SECURITY_CLASS_TEXT[tool.securityClass]}). Your key
      is sent with this one call and is neither stored nor logged by the portal.
      <a href="/portal/catalogue/tools/${tool.name}">About this tool</a>
    </p>
    ${
      missing.length > 0
        ? html`<p class="muted">
            No gateway is configured for ${missing.join(', ')}
            (${missing.map((e) => gatewayUrlKey(e)).join(', ')}): keys of
            ${missing.length === 1 ? 'that environment' : 'those environments'} cannot be tried
            here.
          </p>`
        : null
    }
    <form method="post" action="${action}" novalidate>
      ${csrfField(session)}
      <label for="f-environment">Environment</label>
      <div id="f-environment-hint" class="muted">
        The gateway of the environment your key belongs to.
      </div>
      <select id="f-environment" name="environment" ${invalid('environment')}>
        ${environments.map(
          (e) =>
            html`<option
              value="${e.environment}"
              ${values.environment === e.environment ? html` selected` : null}
            >
              ${e.environment} (${e.url})
            </option>`,
        )}
      </select>
      ${error('environment')}
      <label for="f-key">Subscription key</label>
      <div id="f-key-hint" class="muted">
        Paste the key you collected (tgk_…): the portal keeps keys hashed and cannot show it again.
        It stays in this browser tab only.
      </div>
      <input
        type="password"
        id="f-key"
        name="key"
        autocomplete="off"
        data-keep-in-tab
        required${invalid('key')}
      />
      ${error('key')}
      ${
        userToken
          ? html`<label for="f-userToken">User token (optional)</label>
              <div id="f-userToken-hint" class="muted">
                A user token the gateway accepts, sent as Authorization: Bearer (in development:
                <code>npx toolgate token --sub NAME</code>). Without it a user-scoped tool answers
                that it needs one.
              </div>
              <input
                type="password"
                id="f-userToken"
                name="userToken"
                autocomplete="off"
                data-keep-in-tab${invalid('userToken')}
              />
              ${error('userToken')}`
          : null
      }
      <fieldset class="arguments">
        <legend>Arguments</legend>
        ${values.fields.length === 0 ? html`<p class="muted">This tool takes no arguments.</p>` : argumentControls(values.fields, errors)}
      </fieldset>
      <p><button type="submit">Call ${tool.name}</button></p>
    </form>
    ${outcome}`;
}

function pretty(value: unknown): string {
  return JSON.stringify(value, null, 2) ?? String(value);
}

/** The gateway's answer as the developer reads it: result content, structured content, or the error. */
export function outcomeView(tool: string, url: string, outcome: TryItOutcome): Html {
  const heading = html`<h2 id="result-title">Response</h2>`;
  if (outcome.kind === 'unreachable')
    return html`<section aria-labelledby="result-title" id="try-result">
      ${heading}
      <p class="alert" role="alert">No answer from ${url}: ${outcome.message}.</p>
    </section>`;
  if (outcome.kind === 'error')
    return html`<section aria-labelledby="result-title" id="try-result">
      ${heading}
      <p class="alert" role="alert">
        The gateway refused
        ${outcome.step === 'initialize' ? 'the connection' : `the call of ${tool}`} (HTTP
        ${outcome.status}, JSON-RPC error ${String(outcome.error.code ?? '—')}):
        ${String(outcome.error.message ?? '')}
      </p>
      ${outcome.error.data === undefined ? null : html`<pre>${pretty(outcome.error.data)}</pre>`}
    </section>`;
  const { result } = outcome;
  const isError = result.isError === true;
  const content = Array.isArray(result.content) ? (result.content as unknown[]) : [];
  return html`<section aria-labelledby="result-title" id="try-result">
    ${heading}
    <p ${isError ? html`class="alert" role="alert"` : html`class="notice" role="status"`}>
      HTTP ${outcome.status} · isError: ${isError ? 'true (the tool reported an error)' : 'false'}
    </p>
    <h3>Content</h3>
    ${
      content.length === 0
        ? html`<p class="muted">none</p>`
        : content.map((item) => {
            const text =
              typeof item === 'object' &&
              item !== null &&
              (item as { type?: unknown }).type === 'text'
                ? String((item as { text?: unknown }).text ?? '')
                : pretty(item);
            return html`<pre class="result-content">${text}</pre>`;
          })
    }
    ${
      result.structuredContent === undefined
        ? null
        : html`<h3>Structured content</h3>
            <pre id="structured-content">${pretty(result.structuredContent)}</pre>`
    }
  </section>`;
}

export function registerCataloguePages(
  services: AdminServices,
  config: FrozenConfig,
  tryIt: TryItOptions = {},
) {
  return (app: FastifyInstance, portal: PortalContext): void => {
    const offered = async (name: string) =>
      (await loadDeveloperCatalogue(services, config)).byName.get(name);

    app.get('/catalogue', async (request, reply) => {
      const session = await portal.requireSession(request, reply);
      if (session === null) return reply;
      const catalogue = await loadDeveloperCatalogue(services, config);
      return portal.sendPage(
        reply,
        page(portal.assets, { title: 'Catalogue', session, body: catalogueBody(catalogue) }),
      );
    });

    app.get('/catalogue/tools/:name', async (request, reply) => {
      const session = await portal.requireSession(request, reply);
      if (session === null) return reply;
      const { name } = request.params as { name: string };
      const tool = await offered(name);
      if (tool === undefined) return notOffered(portal, session, reply, name);
      return portal.sendPage(
        reply,
        page(portal.assets, {
          title: tool.name,
          session,
          current: '/portal/catalogue',
          body: toolBody(tool),
        }),
      );
    });

    app.get('/catalogue/tools/:name/try', async (request, reply) => {
      const session = await portal.requireSession(request, reply);
      if (session === null) return reply;
      const { name } = request.params as { name: string };
      const tool = await offered(name);
      if (tool === undefined) return notOffered(portal, session, reply, name);
      const values = { environment: config.environment, fields: argumentFields(tool.inputSchema) };
      return portal.sendPage(
        reply,
        page(portal.assets, {
          title: `Try ${tool.name}`,
          session,
          current: '/portal/catalogue',
          body: tryItBody(session, tool, config, values, {}, null),
        }),
      );
    });

    app.post('/catalogue/tools/:name/try', async (request, reply) => {
      const ok = await portal.requireForm(request, reply);
      if (ok === null) return reply;
      const { session, form } = ok;
      const { name } = request.params as { name: string };
      const tool = await offered(name);
      if (tool === undefined) return notOffered(portal, session, reply, name);
      const fields = argumentFields(tool.inputSchema);
      const parsed = argumentsFromForm(fields, form);
      const problems: Record<string, string> = { ...parsed.problems };
      const environment = one(form, 'environment');
      const target = reachableEnvironments(config).find((e) => e.environment === environment);
      if (target === undefined)
        problems.environment = (ENVIRONMENTS as readonly string[]).includes(environment)
          ? `No gateway is configured for ${environment} (${gatewayUrlKey(environment as Environment)}).`
          : 'Choose one of the listed environments.';
      const key = one(form, 'key').trim();
      if (key === '') problems.key = 'Paste the subscription key you collected.';
      else if (key.length > MAX_CREDENTIAL_CHARS || /\s/.test(key))
        problems.key = 'This is not a subscription key (one word, at most 8192 characters).';
      const userToken = one(form, 'userToken').trim();
      if (userToken.length > MAX_CREDENTIAL_CHARS || /\s/.test(userToken))
        problems.userToken = 'This is not a token (one word, at most 8192 characters).';
      const values = { environment, fields: withValues(fields, form) };
      let outcome: Html | null = null;
      if (Object.keys(problems).length === 0 && target !== undefined) {
        const answer = await tryToolCall(
          {
            url: target.url,
            subscriptionKey: key,
            userToken: userToken === '' ? undefined : userToken,
            tool: tool.name,
            arguments: parsed.arguments,
          },
          tryIt,
        );
        outcome = outcomeView(tool.name, target.url, answer);
      }
      const failed = Object.keys(problems).length > 0;
      return portal.sendPage(
        reply,
        page(portal.assets, {
          title: `Try ${tool.name}`,
          session,
          current: '/portal/catalogue',
          alert: failed ? 'Please correct the fields marked below.' : undefined,
          body: tryItBody(session, tool, config, values, problems, outcome),
        }),
        failed ? 400 : 200,
      );
    });
  };
}
