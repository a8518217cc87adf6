// Admin view of the governance rules (issue 25): the rules in force and their version, the stored versions,
// an editor for the whole set as JSON or YAML text (compiled before it is saved, each problem shown with its
// rule and field), and a dry run of a sample call against the edited, unsaved rules. Forms carry the CSRF
// token like every portal form (requireForm).
import type { FastifyInstance } from 'fastify';
import { parse as parseYaml, stringify as toYaml } from 'yaml';
import type { Actor } from '../../admin/actor.js';
import { AdminError } from '../../admin/errors.js';
import { checked } from '../../admin/http/validate.js';
import {
  DryRunSchema,
  type DryRun,
  type DryRunAnswer,
  type PolicyService,
  type PolicySet,
} from '../../admin/policies.js';
import { html, type Html } from '../html.js';
import { csrfField, field, formatTime, page } from '../layout.js';
import { one } from '../http-security.js';
import type { PortalContext } from '../plugin.js';
import type { PortalSession } from '../session-store.js';

export interface PolicyPageServices {
  readonly policies: PolicyService;
}

const PATH = '/portal/admin/policies';

const SAMPLE = JSON.stringify(
  {
    tool: { name: 'createPayment' },
    arguments: {},
    caller: { subject: 'alice', scopes: [] },
    money: { amount: '1500.00', currency: 'EUR' },
  },
  null,
  2,
);

interface Input {
  readonly rulesText?: string;
  readonly sampleText?: string;
  readonly version?: string;
  readonly problems?: readonly string[];
  readonly answer?: DryRunAnswer;
  readonly notice?: string;
  readonly alert?: string;
}

export function registerPolicyPages(services: PolicyPageServices) {
  return (app: FastifyInstance, portal: PortalContext): void => {
    async function render(session: PortalSession, actor: Actor, input: Input): Promise<Html> {
      const [current, versions] = await Promise.all([
        services.policies.current(actor),
        services.policies.versions(actor),
      ]);
      const body = html`<p>
          In force:
          ${
            current.source === 'stored'
              ? `version ${current.version}, saved ${formatTime(current.createdAt)} by ${current.createdBy ?? ''}`
              : 'the configuration file’s rules (gateway.policies, version 0)'
          }.
          Rules are evaluated in order for every tool call: deny &gt; approve &gt; confirm &gt;
          allow, and every matching budget rule applies. Saved changes reach every gateway replica
          within seconds, without a restart.
        </p>
        ${rulesTable(current)}
        ${
          input.problems && input.problems.length > 0
            ? html`<div class="alert" role="alert" id="rule-problems">
                <p>The rules do not compile:</p>
                <ul>
                  ${input.problems.map((p) => html`<li>${p}</li>`)}
                </ul>
              </div>`
            : null
        }
        ${input.answer ? answerView(input.answer) : null}
        <h2>Edit the rules</h2>
        <form method="post" action="${PATH}">
          ${csrfField(session)}
          <input type="hidden" name="version" value="${input.version ?? String(current.version)}" />
          ${field({
            name: 'rules',
            label: 'Rules (JSON or YAML: a list of rules)',
            type: 'textarea',
            value: input.rulesText ?? rulesText(current),
            hint: 'Each rule: id, description?, when (CEL), effect (allow, deny, confirm, approve, budget), message?, role (approve), budget {scope, period, limit} (budget). See docs/governance.md.',
          })}
          ${field({
            name: 'sample',
            label: 'Sample call for a dry run (JSON)',
            type: 'textarea',
            value: input.sampleText ?? SAMPLE,
            hint: 'tool {name}, arguments, caller {subject, scopes, claims …}, money {amount, currency}, at? — tried against the rules above, saved or not.',
          })}
          <button type="submit" name="intent" value="dry-run">Dry run</button>
          <button type="submit" name="intent" value="save">Save as a new version</button>
        </form>
        <h2>Versions</h2>
        ${
          versions.length === 0
            ? html`<p>No saved versions yet: the configuration file’s rules are in force.</p>`
            : html`<table>
                <thead>
                  <tr>
                    <th scope="col">Version</th>
                    <th scope="col">Rules</th>
                    <th scope="col">Saved</th>
                    <th scope="col">By</th>
                  </tr>
                </thead>
                <tbody>
                  ${versions.map(
                    (v) =>
                      html`<tr>
                        <td>${v.version}</td>
                        <td>${v.rules.map((r) => r.id).join(', ') || '(none: governance off)'}</td>
                        <td>${formatTime(v.createdAt)}</td>
                        <td>${v.createdBy}</td>
                      </tr>`,
                  )}
                </tbody>
              </table>`
        }`;
      return page(portal.assets, {
        title: 'Policies',
        session,
        body,
        notice: input.notice,
        alert: input.alert,
      });
    }

    app.get('/admin/policies', async (request, reply) => {
      const session = await portal.requireSession(request, reply, 'admin');
      if (session === null) return reply;
      const done = (request.query as { done?: string }).done;
      return portal.sendPage(
        reply,
        await render(
          session,
          session.actor,
          done === 'saved' ? { notice: 'Saved as a new version.' } : {},
        ),
      );
    });

    app.post('/admin/policies', async (request, reply) => {
      const ok = await portal.requireForm(request, reply, 'admin');
      if (ok === null) return reply;
      const { session, form } = ok;
      const rulesInput = one(form, 'rules');
      const sampleInput = one(form, 'sample');
      const kept = {
        rulesText: rulesInput,
        sampleText: sampleInput,
        version: one(form, 'version'),
      };
      const refuse = async (status: number, extra: Input) =>
        portal.sendPage(reply, await render(session, session.actor, { ...kept, ...extra }), status);
      const rules = parseRules(rulesInput);
      if ('error' in rules) return refuse(400, { alert: rules.error });
      try {
        if (one(form, 'intent') === 'save') {
          const version = Number(one(form, 'version'));
          if (!Number.isInteger(version) || version < 0)
            return refuse(400, { alert: 'The version being edited is missing: reload the page.' });
          await services.policies.save(session.actor, rules.rules, version);
          return reply.redirect(`${PATH}?done=saved`, 303);
        }
        const sample = parseSample(sampleInput);
        if ('error' in sample) return refuse(400, { alert: sample.error });
        const answer = await services.policies.dryRun(session.actor, {
          ...sample.value,
          rules: rules.rules,
        });
        return refuse(200, { answer });
      } catch (error) {
        if (!(error instanceof AdminError)) throw error;
        if (error.code === 'POLICY_INVALID')
          return refuse(422, {
            alert: 'Not saved: the rules do not compile (see below).',
            problems: error.fields.map((f) => f.message),
          });
        return refuse(error.status, { alert: error.message });
      }
    });
  };
}

function rulesTable(current: PolicySet): Html {
  if (current.rules.length === 0)
    return html`<p>No rules: every admitted call goes to its backend ungoverned.</p>`;
  return html`<table>
    <thead>
      <tr>
        <th scope="col">#</th>
        <th scope="col">Id</th>
        <th scope="col">Effect</th>
        <th scope="col">When</th>
        <th scope="col">Details</th>
      </tr>
    </thead>
    <tbody>
      ${current.rules.map(
        (rule, index) =>
          html`<tr>
            <td>${index}</td>
            <td>${rule.id}</td>
            <td>${rule.effect}</td>
            <td><code>${rule.when}</code></td>
            <td>
              ${rule.role ? html`Approver role <code>${rule.role}</code>. ` : null}
              ${
                rule.budget
                  ? `${rule.budget.limit} per ${rule.budget.scope} per ${rule.budget.period}. `
                  : null
              }
              ${rule.message ?? rule.description ?? ''}
            </td>
          </tr>`,
      )}
    </tbody>
  </table>`;
}

function answerView(answer: DryRunAnswer): Html {
  const { decision } = answer;
  return html`<section aria-labelledby="dry-run-heading">
    <h2 id="dry-run-heading">Dry run: ${decision.effect}</h2>
    <p>${answer.explanation}</p>
    ${decision.message ? html`<p>Message: ${decision.message}</p>` : null}
    ${decision.approverRole ? html`<p>Approver role: <code>${decision.approverRole}</code></p>` : null}
    ${
      answer.money
        ? html`<p>
            Amount: ${answer.money.amount} ${answer.money.currency} = ${answer.money.baseMinor}
            minor units of ${answer.money.baseCurrency}
          </p>`
        : null
    }
    <table>
      <thead>
        <tr>
          <th scope="col">Rule</th>
          <th scope="col">Matched</th>
          <th scope="col">Error</th>
        </tr>
      </thead>
      <tbody>
        ${decision.trace.map(
          (t) =>
            html`<tr>
              <td>${t.ruleId}</td>
              <td>${t.matched ? 'yes' : 'no'}</td>
              <td>${t.error ?? ''}</td>
            </tr>`,
        )}
      </tbody>
    </table>
  </section>`;
}

function rulesText(current: PolicySet): string {
  return current.rules.length === 0 ? '[]\n' : toYaml(current.rules);
}

/** The edited text as a list of rules (JSON is YAML); `{rules: [...]}` is accepted too. */
function parseRules(text: string): { rules: unknown[] } | { error: string } {
  let parsed: unknown;
  try {
    parsed = text.trim() === '' ? [] : parseYaml(text, { maxAliasCount: 0 });
  } catch (error) {
    const first = error instanceof Error ? (error.message.split('\n')[0] ?? '') : '';
    return { error: `The rules are neither JSON nor YAML: ${first}` };
  }
  if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) && 'rules' in parsed)
    parsed = (parsed as { rules: unknown }).rules;
  if (!Array.isArray(parsed)) return { error: 'The rules must be a list (of rules).' };
  return { rules: parsed };
}

function parseSample(text: string): { value: DryRun } | { error: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { error: 'The sample call is not JSON.' };
  }
  const result = checked(DryRunSchema, parsed);
  if (!result.ok)
    return {
      error: `The sample call is invalid: ${result.problems.map((p) => `${p.field || '(sample)'} ${p.message}`).join('; ')}`,
    };
  return { value: result.value };
}
