// The usage view (developers: their own subscriptions; admins: every one): per subscription and tool over
// the last hour or day, a summary table, then per subscription and tool the charts of calls and latency
// over time with their numbers (usage-chart.ts).
import type { FastifyInstance } from 'fastify';
import type { AdminServices } from '../../admin/services.js';
import type { UsageWindow } from '../../usage/store.js';
import { html } from '../html.js';
import { page } from '../layout.js';
import type { PortalContext } from '../plugin.js';
import { formatMs, formatTime } from '../format.js';
import { usageCharts } from '../usage-chart.js';
import { select } from './admin-tools.js';

export function registerUsagePage(services: Pick<AdminServices, 'usage' | 'applications'>) {
  return (app: FastifyInstance, portal: PortalContext): void => {
    app.get('/usage', async (request, reply) => {
      const session = await portal.requireSession(request, reply);
      if (session === null) return reply;
      const window: UsageWindow =
        (request.query as { window?: string }).window === 'day' ? 'day' : 'hour';
      const subscriptions = await services.applications.visibleSubscriptions(session.actor);
      const byId = new Map(subscriptions.map((s) => [s.id, s]));
      const { rows, until } = await services.usage.report(session.actor, { window });
      const series = await services.usage.series(session.actor, { window });
      const subjectOf = (subscriptionId: string, tool: string) => {
        const s = byId.get(subscriptionId);
        return `${tool} · ${s ? `${s.application} (${s.environment})` : subscriptionId}`;
      };
      const body = html`<form method="get" action="/portal/usage" class="actions">
          ${select(
            'window',
            'Window',
            'usage-window',
            [
              ['hour', 'hour'],
              ['day', 'day'],
            ],
            window,
          )}
          <button type="submit">Show</button>
        </form>
        ${
          rows.length === 0
            ? html`<p>No calls in the last ${window}.</p>`
            : html`<table class="stack">
                  <caption class="muted">
                    Last ${window}, until ${formatTime(until)}. Latency percentiles are estimated
                    from a histogram and never fall outside the fastest and slowest call.
                  </caption>
                  <thead>
                    <tr>
                      <th scope="col">Tool and subscription</th>
                      <th scope="col">Requests</th>
                      <th scope="col">Quota refusals</th>
                      <th scope="col">Errors</th>
                      <th scope="col">p50</th>
                      <th scope="col">p95</th>
                      <th scope="col">Average</th>
                    </tr>
                  </thead>
                  <tbody>
                    ${rows.map(
                      (r, i) =>
                        html`<tr>
                          <th scope="row" data-label="Tool">
                            <a href="#usage-${i}">${subjectOf(r.subscriptionId, r.tool)}</a>
                          </th>
                          <td data-label="Requests">${r.requests}</td>
                          <td data-label="Quota refusals">${r.quotaRefusals}</td>
                          <td data-label="Errors">${r.errors}</td>
                          <td data-label="p50">${formatMs(r.latency.p50Ms)}</td>
                          <td data-label="p95">${formatMs(r.latency.p95Ms)}</td>
                          <td data-label="Average">${formatMs(r.latency.avgMs)}</td>
                        </tr>`,
                    )}
                  </tbody>
                </table>
                ${rows.map(
                  (r, i) =>
                    html`<section class="usage" aria-labelledby="usage-${i}">
                      <h2 id="usage-${i}">${subjectOf(r.subscriptionId, r.tool)}</h2>
                      ${usageCharts({
                        id: `usage-${i}`,
                        subject: subjectOf(r.subscriptionId, r.tool),
                        window,
                        until: new Date(until),
                        points: series.points.filter(
                          (p) => p.subscriptionId === r.subscriptionId && p.tool === r.tool,
                        ),
                      })}
                    </section>`,
                )}`
        }`;
      return portal.sendPage(reply, page(portal.assets, { title: 'Usage', session, body }));
    });
  };
}
