// The payment service's /metrics (issue 29, `payments.metrics`): the engine lag is how long the oldest due
// transition has waited (read from the store at scrape time, on the service's clock), 0 once the engine
// made it; engine runs and failed transitions are counted; HTTP requests are counted by route template,
// never by raw URL; the route writes no access line and is off with payments.metrics.enabled false.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createPaymentsMetrics, lagSeconds } from '../../../src/payments/metrics.js';
import { forEachStore, openHarness, send } from '../harness.js';
import { openEngineHarness, transfer, type EngineHarness } from '../engine/helpers.js';

const value = (text: string, series: string): number | undefined => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

test('lagSeconds: none due is 0; a due transition ages from its due instant; never negative', () => {
  const now = new Date('2026-12-01T19:10:00Z');
  assert.equal(lagSeconds(undefined, now), 0);
  assert.equal(lagSeconds(new Date('2026-12-01T19:00:00Z'), now), 600);
  assert.equal(lagSeconds(new Date('2026-12-01T19:20:00Z'), now), 0);
});

forEachStore('payment service metrics', (kind) => {
  let e: EngineHarness;
  before(async () => {
    // Tuesday 1 December 2026, 09:00 UTC: a book transfer executes at the bank's 19:00 UTC cut-off.
    e = await openEngineHarness(kind, '2026-12-01T09:00:00Z');
  });
  after(() => e.close());

  const scrape = async () => {
    const res = await e.h.app.inject({ method: 'GET', url: '/metrics' });
    assert.equal(res.statusCode, 200);
    return res.body;
  };

  test('engine lag: 0 before the cut-off, the wait once due and not run, 0 after the engine ran', async () => {
    await e.balance('bob');
    const id = await e.create('alice', transfer('alice', 'bob', 25));
    assert.equal(value(await scrape(), 'toolgate_payments_engine_lag_seconds'), 0);
    e.setClock('2026-12-01T19:10:00Z'); // due at 19:00, nobody ran the engine
    assert.equal(value(await scrape(), 'toolgate_payments_engine_lag_seconds'), 600);
    await e.run('2026-12-01T19:10:30Z');
    assert.equal(value(await scrape(), 'toolgate_payments_engine_lag_seconds'), 0);
    // Requests are counted by their route template; the payment id never becomes a label.
    await e.payment('alice', id);
    const text = await scrape();
    assert.equal(
      value(
        text,
        'toolgate_payments_http_requests_total{method="GET",route="/payments/payment-order/v1/payments/:externalReferenceNo",status="200"}',
      ),
      1,
    );
    assert.equal(text.includes(id), false, 'no payment id in any label');
    assert.equal(e.h.logs.text.includes('/metrics'), false, 'scrapes write no access line');
  });
});

test('engine runs and failed transitions are counted as the runner reports them', async () => {
  const h = await openHarness('sqlite');
  try {
    const metrics = createPaymentsMetrics({
      path: '/metrics',
      db: h.db,
      fees: h.config.payments.fees,
      now: () => new Date(),
    });
    metrics.engine.ran({
      until: '2026-12-01T19:00:00.000Z',
      steps: [
        {
          paymentId: 'p1',
          action: 'EXECUTE',
          from: 'INITIATED',
          to: 'PENDING',
          at: '2026-12-01T19:00:00.000Z',
        },
        {
          paymentId: 'p1',
          action: 'SETTLE',
          from: 'PENDING',
          to: 'COMPLETED',
          at: '2026-12-01T19:00:00.000Z',
        },
      ],
      skipped: 0,
      failures: [{ paymentId: 'p2', message: 'x' }],
    });
    metrics.engine.failed();
    const app = (await import('fastify')).default();
    metrics.register(app);
    const text = (await app.inject({ method: 'GET', url: '/metrics' })).body;
    await app.close();
    metrics.close();
    assert.equal(value(text, 'toolgate_payments_engine_runs_total{outcome="ok"}'), 1);
    assert.equal(value(text, 'toolgate_payments_engine_runs_total{outcome="failed"}'), 1);
    assert.equal(value(text, 'toolgate_payments_engine_transitions_total{action="EXECUTE"}'), 1);
    assert.equal(value(text, 'toolgate_payments_engine_transitions_total{action="SETTLE"}'), 1);
    assert.equal(value(text, 'toolgate_payments_engine_transition_failures_total'), 1);
  } finally {
    await h.close();
  }
});

test('payments.metrics.enabled false: no /metrics route', async () => {
  const h = await openHarness('sqlite', { overrides: { metrics: { enabled: false } } });
  try {
    assert.equal((await send(h, undefined, 'GET', '/metrics')).statusCode, 404);
  } finally {
    await h.close();
  }
});
