// Subscriptions with their tools (as chips), masked keys (never broken across lines) and key age under the
// rotation policy; the admin variant adds the actions: suspend or resume, edit limits, and the destructive
// ones (revoke, rotate a key) styled as such and confirmed on a page of their own. Below 48 rem the table
// stacks (each row a card, each cell labelled), so the page never scrolls sideways (docs/decisions.md, D-305).
import type { KeyView, SubscriptionView } from '../../admin/views.js';
import { html, type Html } from '../html.js';
import { csrfField, formatTime, statusBadge } from '../layout.js';
import type { PortalSession } from '../session-store.js';

const ROTATION_TEXT = { ok: 'in date', warn: 'rotate soon', expired: 'rotation overdue' } as const;

/** Tool names as chips; "all approved tools" when the subscription is not narrowed. */
export function toolChips(tools: readonly string[] | null): Html {
  if (tools === null) return html`<span class="muted">All approved tools</span>`;
  if (tools.length === 0) return html`<span class="muted">None</span>`;
  return html`<ul class="chips">
    ${tools.map((t) => html`<li><code>${t}</code></li>`)}
  </ul>`;
}

function keyLine(session: PortalSession, s: SubscriptionView, k: KeyView, admin: boolean): Html {
  return html`<li>
    <span class="slot">${k.slot === 'primary' ? 'Primary' : 'Secondary'}</span>
    <code class="key">${k.masked}</code>
    <span class="muted"
      >${k.ageDays} ${k.ageDays === 1 ? 'day' : 'days'} old,
      <span class="rotation-${k.rotationDue}">${ROTATION_TEXT[k.rotationDue]}</span>; last used
      ${k.lastUsedAt === null ? 'never' : formatTime(k.lastUsedAt)}</span
    >
    ${
      admin && s.status !== 'revoked'
        ? html`<form
            method="post"
            action="/portal/admin/subscriptions/${s.id}/keys/${k.slot}/rotate"
            class="inline"
          >
            ${csrfField(session)}<button
              type="submit"
              class="secondary small"
              aria-label="Rotate ${k.slot} key of ${s.application} ${s.environment}"
            >
              Rotate…
            </button>
          </form>`
        : null
    }
  </li>`;
}

export function subscriptionsTable(
  session: PortalSession,
  subscriptions: readonly SubscriptionView[],
  options: { admin: boolean },
): Html {
  if (subscriptions.length === 0) return html`<p>No subscriptions yet.</p>`;
  return html`<table class="stack">
    <thead>
      <tr>
        <th scope="col">Application</th>
        <th scope="col">Status</th>
        <th scope="col">Tools</th>
        <th scope="col">Quota</th>
        <th scope="col">Keys</th>
        ${options.admin ? html`<th scope="col">Actions</th>` : null}
      </tr>
    </thead>
    <tbody>
      ${subscriptions.map(
        (s) =>
          html`<tr>
            <th scope="row" data-label="Application">
              ${s.application}
              <div class="muted">${s.environment}</div>
            </th>
            <td data-label="Status">${statusBadge(s.status)}</td>
            <td data-label="Tools">${toolChips(s.tools)}</td>
            <td data-label="Quota">
              ${s.rateLimitPerMinute === null ? 'Default' : `${s.rateLimitPerMinute} / min`}
            </td>
            <td data-label="Keys">
              ${
                s.keys.length === 0
                  ? html`<span class="muted">Not collected yet</span>`
                  : html`<ul class="keys">
                      ${s.keys.map((k) => keyLine(session, s, k, options.admin))}
                    </ul>`
              }
            </td>
            ${
              options.admin
                ? html`<td data-label="Actions">
                    <div class="actions">${actions(session, s)}</div>
                  </td>`
                : null
            }
          </tr>`,
      )}
    </tbody>
  </table>`;
}

function actions(session: PortalSession, s: SubscriptionView): Html {
  const label = `${s.application} ${s.environment}`;
  const button = (action: string, verb: string, kind: 'secondary' | 'danger') =>
    html`<form method="post" action="/portal/admin/subscriptions/${s.id}/${action}">
      ${csrfField(session)}<button type="submit" class="${kind}" aria-label="${verb} ${label}">
        ${verb}${kind === 'danger' ? '…' : ''}
      </button>
    </form>`;
  if (s.status === 'revoked') return html`<span class="muted">None: revoked</span>`;
  return html`<a
      class="button secondary"
      href="/portal/admin/subscriptions/${s.id}"
      aria-label="Edit limits of ${label}"
      >Edit limits</a
    >${
      s.status === 'active'
        ? button('suspend', 'Suspend', 'secondary')
        : button('resume', 'Resume', 'secondary')
    }${button('revoke', 'Revoke', 'danger')}`;
}
