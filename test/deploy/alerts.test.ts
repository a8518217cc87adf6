// The alert rules and the Grafana dashboard of deploy/ (issue 29): promtool accepts the rules and their
// unit tests pass (each alert fires on its trouble and stays silent on a healthy series); every metric the
// rules and the dashboard name is one a real gateway and a real payment service expose on /metrics after a
// tool call; the dashboard has the structure Grafana imports (uid, datasource variable, panels, targets).
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { ensureDebianBinary } from '../helpers/debian-package.js';
import { GATEWAY_SECRET, openHarness, type Harness } from '../payments/harness.js';
import {
  MCP_HEADERS,
  startConfiguredGateway,
  type ConfiguredGateway,
} from '../gateway/support/gateway.js';

const ROOT = process.cwd();
const RULES = join(ROOT, 'deploy', 'prometheus', 'alerts.yml');
const RULE_TESTS = join(ROOT, 'deploy', 'prometheus', 'alerts.test.yml');
const DASHBOARD = join(ROOT, 'deploy', 'grafana', 'toolgate-red.json');
/** Names of our metrics and of prom-client's process defaults, as they appear in PromQL. */
const METRIC_NAME = /\b(?:toolgate|nodejs|process)_[a-zA-Z0-9_]+/g;

const promtool = ensureDebianBinary('/usr/bin/promtool', 'prometheus');

describe('alert rules (promtool)', { skip: 'skip' in promtool ? promtool.skip : false }, () => {
  const run = (...args: string[]) => {
    const result = spawnSync('/usr/bin/promtool', args, { encoding: 'utf8', timeout: 60_000 });
    return { status: result.status, output: `${result.stdout}${result.stderr}` };
  };

  test('promtool check rules accepts deploy/prometheus/alerts.yml', () => {
    const { status, output } = run('check', 'rules', RULES);
    assert.equal(status, 0, output);
    assert.match(output, /SUCCESS: 8 rules found/);
  });

  test('promtool test rules: every alert fires on its synthetic trouble and not on healthy series', () => {
    const { status, output } = run('test', 'rules', RULE_TESTS);
    assert.equal(status, 0, output);
    assert.match(output, /SUCCESS/);
  });

  test('every alert of alerts.yml has a unit test, a severity and a runbook entry', () => {
    const rules = readFileSync(RULES, 'utf8');
    const tests = readFileSync(RULE_TESTS, 'utf8');
    const operations = readFileSync(join(ROOT, 'docs', 'operations.md'), 'utf8');
    const alerts = [...rules.matchAll(/- alert: (\w+)/g)].map((m) => m[1] as string);
    assert.equal(alerts.length, 8);
    for (const alert of alerts) {
      assert.match(tests, new RegExp(`alertname: ${alert}\\n`), `${alert} is tested`);
      assert.ok(new RegExp(`^### ${alert}$`, 'm').test(operations), `${alert} has a runbook entry`);
      assert.ok(rules.includes(`docs/operations.md#${alert.toLowerCase()}`), `${alert} links it`);
    }
    assert.equal([...rules.matchAll(/severity: (warning|critical)/g)].length, alerts.length);
  });
});

interface Panel {
  id?: number;
  type?: string;
  title?: string;
  datasource?: { type?: string; uid?: string };
  gridPos?: { h: number; w: number; x: number; y: number };
  targets?: { refId?: string; expr?: string; datasource?: { uid?: string } }[];
}

interface Dashboard {
  uid?: string;
  title?: string;
  schemaVersion?: number;
  panels?: Panel[];
  templating?: { list?: { name?: string; type?: string; query?: unknown }[] };
}

const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as Dashboard;
const queryPanels = (dashboard.panels ?? []).filter((p) => p.type !== 'row');

test('the Grafana dashboard: uid, datasource variable, RED panels per tool, backend and subscription', () => {
  assert.equal(dashboard.uid, 'toolgate-red');
  assert.ok(typeof dashboard.title === 'string' && dashboard.title.length > 0);
  assert.ok(typeof dashboard.schemaVersion === 'number');
  const variables = dashboard.templating?.list ?? [];
  const datasource = variables.find((v) => v.name === 'datasource');
  assert.deepEqual(
    { type: datasource?.type, query: datasource?.query },
    { type: 'datasource', query: 'prometheus' },
    'the data source is a variable, so the dashboard imports into any Grafana',
  );
  for (const name of ['backend', 'tool', 'subscription'])
    assert.ok(
      variables.some((v) => v.name === name && v.type === 'query'),
      `variable ${name}`,
    );
  const ids = (dashboard.panels ?? []).map((p) => p.id);
  assert.equal(new Set(ids).size, ids.length, 'panel ids are unique');
  assert.ok(queryPanels.length >= 15);
  for (const panel of queryPanels) {
    assert.equal(panel.datasource?.uid, '${datasource}', `${panel.title}: datasource variable`);
    assert.ok(panel.gridPos && panel.gridPos.w > 0 && panel.gridPos.x + panel.gridPos.w <= 24);
    const targets = panel.targets ?? [];
    assert.ok(targets.length > 0, `${panel.title} has targets`);
    const refIds = targets.map((t) => t.refId);
    assert.equal(new Set(refIds).size, refIds.length, `${panel.title}: refIds unique`);
    for (const target of targets) assert.ok((target.expr ?? '').match(METRIC_NAME));
  }
  const exprs = queryPanels.flatMap((p) => (p.targets ?? []).map((t) => t.expr ?? ''));
  for (const by of ['tool', 'backend', 'subscription']) {
    const grouped = exprs.filter((e) => e.includes(`by (${by})`) || e.includes(`by (le, ${by})`));
    assert.ok(
      grouped.some((e) => /rate\(toolgate_\w+_total/.test(e)),
      `rate per ${by}`,
    );
    assert.ok(
      grouped.some((e) => e.includes('outcome')),
      `errors per ${by}`,
    );
    assert.ok(
      grouped.some((e) => e.includes('histogram_quantile')),
      `duration per ${by}`,
    );
  }
});

/** The metric families of an exposition (`# TYPE` lines), with a histogram's series names. */
function exposedNames(text: string): Set<string> {
  const names = new Set<string>();
  for (const match of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    const [, name, type] = match as unknown as [string, string, string];
    names.add(name);
    if (type === 'histogram') for (const s of ['_bucket', '_sum', '_count']) names.add(name + s);
    if (type === 'summary') for (const s of ['_sum', '_count']) names.add(name + s);
  }
  return names;
}

function referenced(text: string): Set<string> {
  return new Set(text.match(METRIC_NAME) ?? []);
}

function sample(text: string, prefix: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(prefix));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe('the rules and the dashboard name only metrics the services expose', () => {
  let payments: Harness;
  let paymentsUrl: string;
  let gateway: ConfiguredGateway;
  let gatewayText = '';
  let paymentsText = '';

  before(async () => {
    payments = await openHarness('sqlite');
    paymentsUrl = await payments.app.listen({ host: '127.0.0.1', port: 0 });
    gateway = await startConfiguredGateway({
      backends: [
        {
          name: 'payments',
          baseUrl: `${paymentsUrl}/payments/payment-order/v1`,
          openapi: { file: join(ROOT, 'src', 'payments', 'openapi', 'payment-order.yaml') },
          identity: { mode: 'headers', sharedSecret: GATEWAY_SECRET },
          approve: 'all',
        },
      ],
      auth: { devIdentityProvider: { enabled: false } },
    });
    const key = await gateway.issueKey();
    const app: FastifyInstance = gateway.app;
    const call = await app.inject({
      method: 'POST',
      url: '/mcp',
      headers: {
        ...MCP_HEADERS,
        'mcp-protocol-version': '2025-11-25',
        'ocp-apim-subscription-key': key,
      },
      payload: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          name: 'fetchBankDetails',
          arguments: {
            body: { identificationNumber: '011085645', identificationType: 'ROUTING_NUMBER' },
          },
        },
      }),
    });
    assert.equal(call.statusCode, 200, call.body);
    gatewayText = (await app.inject({ method: 'GET', url: '/metrics' })).body;
    const scraped = await fetch(`${paymentsUrl}/metrics`);
    assert.equal(scraped.status, 200);
    assert.match(scraped.headers.get('content-type') ?? '', /^text\/plain/);
    paymentsText = await scraped.text();
  });
  after(async () => {
    await gateway?.close();
    await payments?.close();
  });

  test('the tool call is counted by both services, per tool, backend and subscription', () => {
    // The call reached the payment service (its answer is the backend's: 4xx here, as the call carries
    // no user for it to act for), so both sides counted it.
    const outcome =
      /^toolgate_tool_calls_total\{tool="fetchBankDetails",backend="payments",outcome="(ok|backend_4xx)"\} 1$/m.exec(
        gatewayText,
      )?.[1];
    assert.ok(outcome, gatewayText);
    assert.match(
      gatewayText,
      new RegExp(
        `^toolgate_subscription_tool_calls_total\\{subscription="sub_[A-Za-z0-9_-]+",outcome="${outcome}"\\} 1$`,
        'm',
      ),
    );
    assert.equal(
      sample(gatewayText, 'toolgate_tool_call_duration_seconds_count{tool="fetchBankDetails"}'),
      1,
    );
    // Counted by the payment service under its route template (never the raw URL).
    const routes = [
      ...paymentsText.matchAll(/^toolgate_payments_http_requests_total\{([^}]*)\} 1$/gm),
    ].map((m) => m[1] ?? '');
    assert.equal(routes.length, 1, paymentsText);
    assert.match(
      routes[0] ?? '',
      outcome === 'ok'
        ? /^method="POST",route="\/payments\/payment-order\/v1\/payments\/fetch-bank-details",status="200"$/
        : /^method="POST",route="\/payments\/payment-order\/v1\/payments\/fetch-bank-details",status="4\d\d"$/,
    );
    // Scrape-time gauges have their samples: nothing pending, nothing due.
    assert.equal(sample(gatewayText, 'toolgate_approvals_pending{kind="approve"}'), 0);
    assert.equal(sample(paymentsText, 'toolgate_payments_engine_lag_seconds'), 0);
  });

  test('every metric alerts.yml names is exposed by the gateway or the payment service', () => {
    const exposed = new Set([...exposedNames(gatewayText), ...exposedNames(paymentsText)]);
    const names = referenced(readFileSync(RULES, 'utf8'));
    assert.ok(names.size >= 10, [...names].join(', '));
    const missing = [...names].filter((n) => !exposed.has(n));
    assert.deepEqual(missing, [], 'metrics named by the rules but exposed by neither service');
  });

  test('every metric the dashboard queries is exposed by the gateway or the payment service', () => {
    const exposed = new Set([...exposedNames(gatewayText), ...exposedNames(paymentsText)]);
    const exprs = queryPanels.flatMap((p) => (p.targets ?? []).map((t) => t.expr ?? ''));
    const names = referenced(exprs.join('\n'));
    assert.ok(names.size >= 15, [...names].join(', '));
    const missing = [...names].filter((n) => !exposed.has(n));
    assert.deepEqual(missing, [], 'metrics the dashboard queries that neither service exposes');
  });

  test('the payment service serves /metrics without an access line', () => {
    assert.equal(payments.logs.text.includes('/metrics'), false, 'a scrape writes no access line');
  });
});
