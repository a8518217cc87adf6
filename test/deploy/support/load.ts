// Steady MCP load through the load balancer, as several independent clients send it: each client is a
// user with its own connection pool doing initialize + tools/call in a loop at a set pace. Every request
// is recorded (when it was sent, how it ended) so the scenario can count per fault window afterwards.
import { randomUUID } from 'node:crypto';
import { Agent, request } from 'undici';

export interface Sample {
  readonly client: string;
  readonly method: string;
  readonly sentAt: number;
  readonly ms: number;
  /** ok; limited (429, a quota refusal); error (anything else: HTTP error, JSON-RPC error, tool error). */
  readonly outcome: 'ok' | 'limited' | 'error';
  /** For errors: the HTTP status, the JSON-RPC code or the tool error's text start. */
  readonly detail?: string;
}

export interface Credentials {
  readonly mcpUrl: string;
  readonly key: string;
  readonly tokenFor: (user: string) => Promise<string>;
}

export interface Acknowledged {
  readonly idempotencyKey: string;
  readonly paymentId: string;
}

interface RpcOutcome {
  readonly sample: Sample;
  readonly result?: Record<string, unknown>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

class McpClient {
  private readonly agent = new Agent({ connections: 2, keepAliveTimeout: 30_000 });
  private id = 0;
  readonly samples: Sample[] = [];
  inFlight = 0;

  constructor(
    readonly name: string,
    private readonly url: string,
    private readonly headers: Record<string, string>,
  ) {}

  async rpc(method: string, params?: unknown): Promise<RpcOutcome> {
    const sentAt = Date.now();
    const done = (
      outcome: Sample['outcome'],
      detail?: string,
      result?: Record<string, unknown>,
    ) => {
      const sample: Sample = {
        client: this.name,
        method:
          method === 'tools/call' ? `tools/call ${(params as { name: string }).name}` : method,
        sentAt,
        ms: Date.now() - sentAt,
        outcome,
        ...(detail === undefined ? {} : { detail }),
      };
      this.samples.push(sample);
      return { sample, ...(result ? { result } : {}) };
    };
    this.inFlight++;
    try {
      const response = await request(this.url, {
        method: 'POST',
        dispatcher: this.agent,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-06-18',
          ...this.headers,
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: ++this.id, method, params }),
        signal: AbortSignal.timeout(30_000),
      });
      const text = await response.body.text();
      if (response.statusCode === 429) return done('limited', '429');
      if (response.statusCode !== 200) return done('error', `HTTP ${response.statusCode}`);
      const body = JSON.parse(text) as {
        error?: { code: number };
        result?: Record<string, unknown> & { isError?: boolean; content?: { text?: string }[] };
      };
      if (body.error) return done('error', `rpc ${body.error.code}`);
      if (body.result?.isError === true)
        return done('error', `tool: ${(body.result.content?.[0]?.text ?? '').slice(0, 400)}`);
      return done('ok', undefined, body.result);
    } catch (error) {
      return done('error', (error as Error).name);
    } finally {
      this.inFlight--;
    }
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

const INITIALIZE = {
  protocolVersion: '2025-06-18',
  capabilities: {},
  clientInfo: { name: 'failover-scenario', version: '1.0.0' },
};

export class Load {
  private stopping = false;
  private readonly runs: Promise<void>[] = [];
  readonly clients: McpClient[] = [];
  readonly acknowledged: Acknowledged[] = [];
  /** Idempotency keys a payment client gave up on (never acknowledged). */
  readonly abandoned: string[] = [];

  constructor(private readonly credentials: Credentials) {}

  private async client(name: string, user: string): Promise<McpClient> {
    const token = await this.credentials.tokenFor(user);
    const client = new McpClient(name, this.credentials.mcpUrl, {
      'ocp-apim-subscription-key': this.credentials.key,
      authorization: `Bearer ${token}`,
    });
    this.clients.push(client);
    return client;
  }

  /** A client reading: initialize, then getMyAccountBalance / listPayments, every `paceMs`. */
  async reader(user: string, paceMs: number): Promise<void> {
    const client = await this.client(`reader ${user}`, user);
    this.runs.push(
      (async () => {
        for (let i = 0; !this.stopping; i++) {
          if (i % 10 === 0) await client.rpc('initialize', INITIALIZE);
          else
            await client.rpc('tools/call', {
              name: i % 2 ? 'getMyAccountBalance' : 'listPayments',
              arguments: {},
            });
          await sleep(paceMs);
        }
      })(),
    );
  }

  /**
   * A client over its quota: `concurrency` loops sending `ping` (counted against the user's quota like
   * any call), each pausing `paceMs` between requests.
   */
  async overQuota(user: string, paceMs: number, concurrency: number): Promise<McpClient> {
    const client = await this.client(`quota ${user}`, user);
    for (let i = 0; i < concurrency; i++)
      this.runs.push(
        (async () => {
          while (!this.stopping) {
            await client.rpc('ping');
            await sleep(paceMs);
          }
        })(),
      );
    return client;
  }

  /**
   * A client creating payment orders, each with an idempotency key of its own (also written into the
   * payee's name, so the database shows which key made which payment), sending the same key again after
   * any failure until the payment is acknowledged (or `giveUpMs` passed).
   */
  async payer(user: string, paceMs: number, giveUpMs = 60_000): Promise<McpClient> {
    const client = await this.client(`payer ${user}`, user);
    const balance = await client.rpc('tools/call', { name: 'getMyAccountBalance', arguments: {} });
    const payer = (balance.result?.structuredContent as { items?: { accountId: string }[] })
      ?.items?.[0]?.accountId;
    if (!payer) throw new Error(`no account for ${user}: ${JSON.stringify(balance.sample)}`);
    this.runs.push(
      (async () => {
        while (!this.stopping) {
          const key = `fo-${user}-${randomUUID().slice(0, 8)}`;
          const args = {
            'Idempotent-Request-Key': key,
            body: {
              payerAccountReference: { paymentInstructionAccount: { accountId: payer } },
              payeeReference: { involvedParty: { partyName: `Failover ${key}` } },
              payeeAccountReference: {
                paymentInstructionAccount: { accountId: 'GB29NWBK60161331926819' },
              },
              paymentInstruction: { amount: { instructedAmount: 0.01, instructedCurrency: 'EUR' } },
            },
          };
          const giveUpAt = Date.now() + giveUpMs;
          for (;;) {
            const outcome = await client.rpc('tools/call', {
              name: 'createPayment',
              arguments: args,
            });
            const id = (
              outcome.result?.structuredContent as
                { paymentInstructionReference?: { identification?: string } } | undefined
            )?.paymentInstructionReference?.identification;
            if (outcome.sample.outcome === 'ok' && id) {
              this.acknowledged.push({ idempotencyKey: key, paymentId: id });
              break;
            }
            if (Date.now() > giveUpAt) {
              this.abandoned.push(key);
              break;
            }
            await sleep(500);
          }
          await sleep(paceMs);
        }
      })(),
    );
    return client;
  }

  get samples(): Sample[] {
    return this.clients.flatMap((client) => client.samples).sort((a, b) => a.sentAt - b.sentAt);
  }

  /** Stops every client after its current request (a payer after its current payment). */
  async stop(): Promise<void> {
    this.stopping = true;
    await Promise.all(this.runs);
    await Promise.all(this.clients.map((client) => client.close()));
  }
}
