// Subscriptions with their masked keys and key age under the rotation policy; the admin variant adds
// the actions (suspend, resume, revoke, rotate).
import type { SubscriptionView } from '../../admin/views.js';
import { html, type Html } from '../html.js';
import { csrfField, formatTime, statusBadge } from '../layout.js';
import type { PortalSession } from '../session-store.js';

const ROTATION_TEXT = { ok: 'ok', warn: 'rotate soon', expired: 'rotation overdue' } as const;

export function subscriptionsTable(
  session: PortalSession,
  subscriptions: readonly SubscriptionView[],
  options: { admin: boolean },
): Html {
  if (subscriptions.length === 0) return html`<p>No subscriptions yet.</p>`;
  return html`<table>
    <thead>
      <tr>
        <th scope="col">Application</th>
        <th scope="col">Environment</th>
        <th scope="col">Status</th>
        <th scope="col">Tools</th>
        <th scope="col">Quota / min</th>
        <th scope="col">Keys (age, last use)</th>
        ${options.admin ? html`<th scope="col">Actions</th>` : null}
      </tr>
    </thead>
    <tbody>
      ${subscriptions.map(
        (s) =>
          html`<tr>
            <td>${s.application}</td>
            <td>${s.environment}</td>
            <td>${statusBadge(s.status)}</td>
            <td>${s.tools === null ? 'all approved tools' : s.tools.join(', ')}</td>
            <td>${s.rateLimitPerMinute ?? 'default'}</td>
            <td>
              ${
                s.keys.length === 0
                  ? html`<span class="muted">not collected yet</span>`
                  : html`<ul>
                      ${s.keys.map(
                        (k) =>
                          html`<li>
                            ${k.slot}: <code>${k.masked}</code>, ${k.ageDays} days old
                            <span class="rotation-${k.rotationDue}"
                              >(${ROTATION_TEXT[k.rotationDue]})</span
                            >, last used
                            ${formatTime(k.lastUsedAt)}${
                              options.admin && s.status !== 'revoked'
                                ? html` <form
                                    method="post"
                                    action="/portal/admin/subscriptions/${s.id}/keys/${k.slot}/rotate"
                                    class="inline"
                                  >
                                    ${csrfField(session)}<button
                                      type="submit"
                                      class="secondary"
                                      aria-label="Rotate ${k.slot} key of ${s.application} ${s.environment}"
                                    >
                                      Rotate
                                    </button>
                                  </form>`
                                : null
                            }
                          </li>`,
                      )}
                    </ul>`
              }
            </td>
            ${options.admin ? html`<td><div class="actions">${actions(session, s)}</div></td>` : null}
          </tr>`,
      )}
    </tbody>
  </table>`;
}

function actions(session: PortalSession, s: SubscriptionView): Html {
  const label = `${s.application} ${s.environment}`;
  const button = (action: string, text: string, danger = false) =>
    html`<form method="post" action="/portal/admin/subscriptions/${s.id}/${action}">
      ${csrfField(session)}<button
        type="submit"
        ${danger ? html` class="danger"` : null}
        aria-label="${text} ${label}"
      >
        ${text}
      </button>
    </form>`;
  if (s.status === 'revoked') return html`<span class="muted">none</span>`;
  return html`${s.status === 'active' ? button('suspend', 'Suspend') : button('resume', 'Resume')}${button('revoke', 'Revoke', true)}${limitsForm(session, s)}`;
}

/** Quota and tools of one subscription (empty: the gateway's default quota, every approved tool). */
function limitsForm(session: PortalSession, s: SubscriptionView): Html {
  return html`<form method="post" action="/portal/admin/subscriptions/${s.id}/limits">
    ${csrfField(session)}
    <label for="${s.id}-rateLimitPerMinute">Quota / min</label>
    <input
      type="number"
      min="1"
      id="${s.id}-rateLimitPerMinute"
      name="rateLimitPerMinute"
      value="${s.rateLimitPerMinute ?? ''}"
    />
    <label for="${s.id}-tools">Tools</label>
    <input type="text" id="${s.id}-tools" name="tools" value="${s.tools?.join(', ') ?? ''}" />
    <button
      type="submit"
      class="secondary"
      aria-label="Save limits of ${s.application} ${s.environment}"
    >
      Save limits
    </button>
  </form>`;
}
