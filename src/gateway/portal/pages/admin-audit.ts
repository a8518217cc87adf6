// Admin view: the audit log with filters (actor, action, target, time range) and a JSON-lines export
// of the same selection.
import type { FastifyInstance } from 'fastify';
import type { AdminServices } from '../../admin/services.js';
import type { AuditEntry, AuditQuery } from '../../admin/audit-log.js';
import { html, type Html } from '../html.js';
import { auditDiff } from '../audit-diff.js';
import { field, formatTime, page } from '../layout.js';
import type { PortalContext } from '../plugin.js';

const FILTERS = ['actor', 'action', 'target', 'since', 'until'] as const;

function queryOf(raw: Record<string, unknown>, limit: number): AuditQuery {
  const query: Record<string, string | number> = { limit };
  for (const name of FILTERS) {
    const value = raw[name];
    if (typeof value === 'string' && value.trim() !== '') query[name] = value.trim().slice(0, 200);
  }
  return query as AuditQuery;
}

/** Before → after as one line per changed path (old value struck, new value inserted); it wraps. */
function change(entry: AuditEntry): Html {
  const lines = auditDiff(entry.before, entry.after);
  if (lines.length === 0) return html`<span class="muted">No recorded change</span>`;
  const path = (p: string) => (p === '' ? null : html`<code class="path">${p}</code>: `);
  return html`<ul class="diff">
    ${lines.map((l) =>
      l.kind === 'changed'
        ? html`<li>${path(l.path)}<del>${l.before}</del> → <ins>${l.after}</ins></li>`
        : l.kind === 'added'
          ? html`<li>${path(l.path)}<ins>${l.after}</ins> <span class="muted">(added)</span></li>`
          : html`<li>
              ${path(l.path)}<del>${l.before}</del> <span class="muted">(removed)</span>
            </li>`,
    )}
  </ul>`;
}

export function registerAdminAuditPages(services: AdminServices) {
  return (app: FastifyInstance, portal: PortalContext): void => {
    app.get('/admin/audit', async (request, reply) => {
      const session = await portal.requireSession(request, reply, 'admin');
      if (session === null) return reply;
      const raw = request.query as Record<string, unknown>;
      const query = queryOf(raw, 200);
      const entries = await services.audit.query(query);
      const verification = await services.audit.verify();
      const exportQuery = new URLSearchParams(
        FILTERS.flatMap((f): [string, string][] =>
          typeof raw[f] === 'string' && raw[f] !== '' ? [[f, raw[f] as string]] : [],
        ),
      ).toString();
      const body = html`<p class="${verification.ok ? 'notice' : 'alert'}">
          ${
            verification.ok
              ? `Hash chain verified: ${verification.entries} entries, unbroken.`
              : `Hash chain broken at entry ${verification.brokenAt ?? '?'}.`
          }
        </p>
        <form method="get" action="/portal/admin/audit" class="filters">
          ${FILTERS.map((name) =>
            field({
              name,
              label: {
                actor: 'Actor (subject)',
                action: 'Action',
                target: 'Target (type:id or id)',
                since: 'Since (ISO 8601, UTC)',
                until: 'Until (ISO 8601, UTC)',
              }[name],
              value: typeof raw[name] === 'string' ? (raw[name] as string) : '',
            }),
          )}
          <p class="actions">
            <button type="submit">Filter</button>
            <a href="/portal/admin/audit/export${exportQuery ? `?${exportQuery}` : ''}"
              >Export as JSON lines</a
            >
          </p>
        </form>
        <table class="stack audit">
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">When</th>
              <th scope="col">Who</th>
              <th scope="col">Action</th>
              <th scope="col">Target</th>
              <th scope="col">Before → after</th>
            </tr>
          </thead>
          <tbody>
            ${entries.map(
              (e) =>
                html`<tr>
                  <td data-label="#">${e.seq}</td>
                  <td data-label="When">${formatTime(e.at)}</td>
                  <td data-label="Who">
                    ${e.actor.subject} <span class="muted">(${e.actor.role}, ${e.actor.via})</span>
                  </td>
                  <td data-label="Action"><code>${e.action}</code></td>
                  <td data-label="Target"><code>${e.target.type}:${e.target.id}</code></td>
                  <td data-label="Before → after">${change(e)}</td>
                </tr>`,
            )}
          </tbody>
        </table>`;
      return portal.sendPage(reply, page(portal.assets, { title: 'Audit log', session, body }));
    });

    app.get('/admin/audit/export', async (request, reply) => {
      const session = await portal.requireSession(request, reply, 'admin');
      if (session === null) return reply;
      const entries = await services.audit.query(
        queryOf(request.query as Record<string, unknown>, 100_000),
      );
      return reply
        .type('application/jsonl; charset=utf-8')
        .header('Content-Disposition', 'attachment; filename="toolgate-audit.jsonl"')
        .send(entries.map((e) => JSON.stringify(e)).join('\n') + (entries.length ? '\n' : ''));
    });
  };
}
