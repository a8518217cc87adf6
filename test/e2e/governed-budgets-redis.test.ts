// Issue 25, "Tests": "Budgets exact across two gateway replicas on Redis under concurrent calls", and
// "Money budgets": cumulative amounts per user, "exact across replicas on the same stores as the quotas
// (memory or Redis), reserved when a call is admitted and released if the backend refuses it. A refusal
// says which budget, how much remains and when it resets." (docs/governance.md, "Budgets").
//
// The real programs: one `toolgate payments` process and two `toolgate gateway` processes sharing one data
// folder (one gateway database) and one Redis, the gateways trusting the payment service through the
// identity shared secret and verifying the user's token with a static key (so both replicas accept one
// token). The rule set has one `budget` rule (1,000 EUR per user per day) and no consent rule, so nothing
// waits for a person. 40 `createPayment` calls of 70 EUR each, as the same user, fire at once, alternating
// between the replicas: exactly ⌊1000 / 70⌋ = 14 may pass the budget.
//
// How admissions are counted. A call the budget admits is sent to the payment service; a call it refuses
// never leaves the gateway. A backend refusal would release its reservation and let another call in, so
// the setup leaves the backend no reason to refuse: each call has its own reference (the service refuses an
// identical order within 10 minutes as a possible duplicate) and the admitted total, 980 EUR, is well
// under the 5,000 EUR every demo account opens with. The test then checks that no tool result is anything
// but a created payment or a budget refusal (so no reservation was released), counts the created payments
// (admitted = created) and cross-checks with the payment service's own books: alice's available balance
// is 5,000 EUR less the holds of exactly 14 accepted payments; and the governance evidence in the audit
// log (read through the admin API) shows 14 reservations, 26 budget refusals and 14 backend answers of
// 201 with nothing released. Every refusal must come when the counter
// stood at 980 EUR (all amounts are 70 and nothing was released), so each names 20.00 EUR left; and a
// 20 EUR payment afterwards fills the budget exactly, after which 1 EUR is refused with 0.00 left.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { SignJWT, exportJWK, generateKeyPair } from 'jose';
import { finished, runCli, spawnCli, waitForSummary } from '../helpers/process.js';
import { rpc } from '../helpers/mcp-http.js';
import { REDIS_URL, skipWithoutRedis, uniqueName } from '../helpers/infra.js';

const LIMIT_EUR = 1000;
const AMOUNT_EUR = 70;
const CALLS = 40;
const ISSUER = 'https://idp.example.test';
const AUDIENCE = 'toolgate-budgets-e2e';

interface ToolResult {
  readonly isError?: boolean;
  readonly content: { type: string; text: string }[];
  readonly structuredContent?: Record<string, unknown>;
}

/** The start of the next UTC day (the budget's `timeZone` is the default, UTC), as an ISO timestamp. */
function nextUtcMidnight(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() + 1));
}

test(
  'issue 25: a 1,000 EUR daily user budget admits exactly 14 of 40 concurrent 70 EUR createPayment calls across two gateway replicas on one Redis; the 26 others are tool errors naming the budget, 20.00 EUR left and the reset',
  { skip: skipWithoutRedis },
  async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'toolgate-budgets-'));
    const secret = randomBytes(24).toString('base64url');
    const adminToken = randomBytes(24).toString('base64url');
    const { publicKey, privateKey } = await generateKeyPair('ES256');
    const jwk = { ...(await exportJWK(publicKey)), kid: 'budget-key', alg: 'ES256' };
    const common = { TOOLGATE_DATA_DIR: dataDir, TOOLGATE_LOG_LEVEL: 'warn' };

    // The payment service: trusts identity headers that carry the shared secret.
    const paymentsConfig = join(dataDir, 'payments.json');
    writeFileSync(
      paymentsConfig,
      JSON.stringify({ payments: { identity: { sharedSecret: secret } } }),
    );
    const payments = spawnCli(['payments', '--json'], {
      ...common,
      TOOLGATE_CONFIG: paymentsConfig,
      TOOLGATE_PAYMENTS_PORT: '0',
    });
    const children: ReturnType<typeof spawnCli>[] = [];
    try {
      const paymentsUrl = (await waitForSummary(payments)).paymentsUrl;
      assert.ok(paymentsUrl, 'the payment service printed its URL');
      const origin = new URL(paymentsUrl).origin;

      // The gateways: both payment documents as backends, the money of createPayment located for
      // governance, one budget rule, the quotas' (and so the budgets') store on Redis.
      const backend = (name: string, path: string, document: string) => ({
        name,
        baseUrl: `${origin}${path}`,
        openapi: { file: join(process.cwd(), 'src', 'payments', 'openapi', document) },
        approve: 'all',
        identity: { mode: 'headers', sharedSecret: secret },
      });
      const gatewayConfig = join(dataDir, 'gateway.json');
      writeFileSync(
        gatewayConfig,
        JSON.stringify({
          gateway: {
            auth: {
              devIdentityProvider: { enabled: false },
              jwt: { issuer: ISSUER, audience: AUDIENCE, staticKeys: [{ jwk }] },
            },
            backends: [
              {
                ...backend('payments', '/payments/payment-order/v1', 'payment-order.yaml'),
                tools: {
                  createPayment: {
                    money: {
                      amount: '/body/paymentInstruction/amount/instructedAmount',
                      currency: '/body/paymentInstruction/amount/instructedCurrency',
                      reference: '/paymentInstructionReference/identification',
                    },
                  },
                },
              },
              backend('accounts', '/accounts/v1', 'accounts.yaml'),
            ],
            policies: [
              {
                id: 'daily-user-budget',
                when: 'has(money.base)',
                effect: 'budget',
                budget: { scope: 'user', period: 'day', limit: String(LIMIT_EUR) },
              },
            ],
            governance: {
              budgets: {
                redis: { keyPrefix: `${uniqueName('tgbudget')}:`, commandTimeoutMs: 5000 },
              },
            },
            rateLimit: {
              store: 'redis',
              subscriptionDefault: { limit: 100000, windowSeconds: 60 },
              redis: { keyPrefix: `${uniqueName('tgbudgetrl')}:`, commandTimeoutMs: 5000 },
            },
          },
        }),
      );
      const env = { ...common, TOOLGATE_CONFIG: gatewayConfig, REDIS_URL: REDIS_URL ?? '' };
      const created = await runCli(
        ['keys', 'create', '--app', 'budget-agent', '--env', 'development', '--json'],
        env,
      );
      assert.equal(created.code, 0, created.stderr);
      const key = (JSON.parse(created.stdout) as { primaryKey: string }).primaryKey;
      const token = await new SignJWT({})
        .setProtectedHeader({ alg: 'ES256', kid: 'budget-key' })
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setSubject('alice')
        .setIssuedAt()
        .setExpirationTime('10m')
        .sign(privateKey);

      for (let i = 0; i < 2; i++)
        children.push(spawnCli(['gateway', '--json'], { ...env, TOOLGATE_GATEWAY_PORT: '0' }));
      // The admin plane on the same gateway database, to read the governance evidence (audit log).
      children.push(spawnCli(['admin', '--json'], { ...env, TOOLGATE_ADMIN_TOKEN: adminToken }));
      const [first, second, admin] = children;
      assert.ok(first && second && admin);
      const urls = [
        (await waitForSummary(first)).mcpUrl ?? '',
        (await waitForSummary(second)).mcpUrl ?? '',
      ];
      const adminApi = `${(await waitForSummary(admin)).adminUrl}/admin/api/v1`;
      const evidence = async (action: string) => {
        const response = await fetch(`${adminApi}/audit?action=${action}&limit=1000`, {
          headers: { authorization: `Bearer ${adminToken}` },
        });
        assert.equal(response.status, 200, await response.clone().text());
        return ((await response.json()) as { entries: { after: Record<string, unknown> }[] })
          .entries;
      };
      assert.notEqual(urls[0], urls[1]);
      const headers = { 'ocp-apim-subscription-key': key, authorization: `Bearer ${token}` };
      const callTool = async (url: string, name: string, args: unknown): Promise<ToolResult> => {
        const response = await rpc(url, headers, 'tools/call', { name, arguments: args });
        assert.equal(response.status, 200, JSON.stringify(response.body));
        assert.ok(response.body.result, JSON.stringify(response.body));
        return response.body.result as ToolResult;
      };
      const balance = async () => {
        const result = await callTool(urls[0] ?? '', 'getMyAccountBalance', {});
        assert.notEqual(result.isError, true, JSON.stringify(result.content));
        return (
          result.structuredContent as {
            items: { accountId: string; bookedBalance: number; availableBalance: number }[];
          }
        ).items[0];
      };
      const opening = await balance();
      assert.ok(opening);
      assert.equal(opening.availableBalance, 5000);
      const pay = (url: string, amount: number, n: number) =>
        callTool(url, 'createPayment', {
          body: {
            payerAccountReference: { paymentInstructionAccount: { accountId: opening.accountId } },
            payeeReference: { involvedParty: { partyName: 'Ada Lovelace' } },
            payeeAccountReference: {
              paymentInstructionAccount: { accountId: 'GB29NWBK60161331926819' },
            },
            paymentInstruction: {
              amount: { instructedAmount: amount, instructedCurrency: 'EUR' },
            },
            // Its own reference per call: no two orders alike (the service's duplicate check).
            paymentInstructionReference: { reference: `budget-${n}` },
          },
        });

      const startedAt = new Date();
      const results = await Promise.all(
        Array.from({ length: CALLS }, (_, n) => pay(urls[n % 2] ?? '', AMOUNT_EUR, n)),
      );
      const reset = nextUtcMidnight(startedAt).toISOString();

      const paid = results.filter((r) => r.isError !== true);
      const refused = results.filter((r) => r.isError === true);
      const budgetRefusal = (r: ToolResult) => r.structuredContent?.budget !== undefined;
      const other = refused.filter((r) => !budgetRefusal(r));
      // No call was refused by the backend (nor for any other reason): so no reservation was released,
      // and every call the budget admitted is a created payment.
      assert.deepEqual(
        other.map((r) => r.content),
        [],
        'only budget refusals are expected (a backend refusal would release a reservation)',
      );
      const expected = Math.floor(LIMIT_EUR / AMOUNT_EUR);
      assert.equal(paid.length, expected, `admitted ${paid.length} of ${CALLS}`);
      assert.equal(refused.length, CALLS - expected);
      const ids = new Set(
        paid.map(
          (r) =>
            (r.structuredContent as { paymentInstructionReference: { identification: string } })
              .paymentInstructionReference.identification,
        ),
      );
      assert.equal(ids.size, expected, 'each admitted call made its own payment');

      // Each refusal: which budget (rule, scope, period, limit), how much remains, when it resets: in the
      // sentence the agent relays and in structuredContent.budget.
      for (const r of refused) {
        const text = r.content.map((c) => c.text).join('\n');
        assert.equal(
          text,
          `This call would exceed your daily budget "daily-user-budget" of 1000.00 EUR: 20.00 EUR ` +
            `remain until it resets at ${reset} (the backend was not called).`,
        );
        assert.deepEqual(r.structuredContent?.budget, {
          rule: 'daily-user-budget',
          scope: 'user',
          period: 'day',
          currency: 'EUR',
          limit: '1000.00',
          remaining: '20.00',
          resetsAt: reset,
        });
      }

      // The governance evidence (hash-chained audit log, written by both replicas): 14 reservations, 26
      // budget refusals, 14 backend answers, each a 201 with the payment's reference and nothing released.
      const reserved = await evidence('governance.budget.reserved');
      assert.equal(reserved.length, expected);
      assert.ok(reserved.every((e) => e.after.amountMinor === AMOUNT_EUR * 100));
      assert.equal((await evidence('governance.budget.refused')).length, CALLS - expected);
      const answers = await evidence('governance.backend.answer');
      assert.deepEqual(
        answers.map((e) => [e.after.status, e.after.released]),
        Array.from({ length: expected }, () => [201, false]),
      );
      assert.deepEqual(new Set(answers.map((e) => e.after.reference)), ids);

      // The payment service's own books: 14 holds of 70 EUR on alice's account.
      const afterBurst = await balance();
      assert.equal(afterBurst?.availableBalance, 5000 - expected * AMOUNT_EUR);

      // The remainder is exact: 20 EUR fits (on the other replica), then nothing is left.
      const last = await pay(urls[1] ?? '', LIMIT_EUR - expected * AMOUNT_EUR, CALLS);
      assert.notEqual(last.isError, true, JSON.stringify(last.content));
      const over = await pay(urls[0] ?? '', 1, CALLS + 1);
      assert.equal(over.isError, true);
      const overText = over.content.map((c) => c.text).join('\n');
      assert.match(
        overText,
        /budget "daily-user-budget" of 1000\.00 EUR: 0\.00 EUR remain/,
        overText,
      );
      assert.equal((await balance())?.availableBalance, 5000 - LIMIT_EUR);
    } finally {
      for (const child of children) child.kill('SIGTERM');
      payments.kill('SIGTERM');
      for (const child of [...children, payments]) {
        const result = await finished(child, 15000);
        assert.equal(result.code, 0, result.stderr.slice(-500));
      }
    }
  },
);
