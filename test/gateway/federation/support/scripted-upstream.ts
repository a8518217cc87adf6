// An UpstreamMcp whose answers the test sets (federation/contracts.ts): the list it gives, or the failure
// it answers with, a list that is slow to come, and notifications the test sends. For unit tests of what
// the gateway does with upstream lists; the real client is tested against real servers.
import {
  UpstreamError,
  type UpstreamMcp,
  type UpstreamNotification,
  type UpstreamRequestOptions,
  type UpstreamServer,
} from '../../../../src/gateway/federation/contracts.js';

export class ScriptedUpstream implements UpstreamMcp {
  items: Record<string, unknown>[] = [];
  ttlMs: number | undefined;
  /** When set, every request fails with it. */
  failure: UpstreamError | undefined;
  /** When set, tools/list waits for it before answering. */
  gate: Promise<void> | undefined;
  circuitOpen = false;
  lists = 0;
  /** Every load's first request (server()), answered or not. */
  attempts = 0;
  closed = false;
  private readonly listeners = new Set<(n: UpstreamNotification) => void>();

  constructor(readonly backend: string) {}

  /** Items named `names`, each with an object inputSchema. */
  static tools(...names: string[]): Record<string, unknown>[] {
    return names.map((name) => ({
      name,
      description: `${name} at the upstream`,
      inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
    }));
  }

  fail(reason: UpstreamError['reason'] = 'unavailable'): void {
    this.failure = new UpstreamError(this.backend, reason, `${this.backend}: connection refused`);
  }

  notify(method: string): void {
    for (const listener of this.listeners) listener({ method });
  }

  async server(_options?: UpstreamRequestOptions): Promise<UpstreamServer> {
    this.attempts++;
    if (this.failure) throw this.failure;
    return { protocolVersion: '2025-11-25', capabilities: { tools: { listChanged: true } } };
  }

  async request(): Promise<Record<string, unknown>> {
    if (this.failure) throw this.failure;
    return {};
  }

  async listAll(
    method: string,
    key: string,
    options?: UpstreamRequestOptions,
  ): Promise<{ items: readonly Record<string, unknown>[]; ttlMs?: number | undefined }> {
    if (method !== 'tools/list' || key !== 'tools') throw new Error(`unexpected ${method}`);
    this.lists++;
    if (this.gate) {
      const signal = options?.signal;
      await Promise.race([
        this.gate,
        new Promise<void>((_resolve, reject) =>
          signal?.addEventListener('abort', () => reject(signal.reason as Error)),
        ),
      ]);
    }
    if (this.failure) throw this.failure;
    return { items: this.items, ttlMs: this.ttlMs };
  }

  onNotification(listener: (n: UpstreamNotification) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get listening(): number {
    return this.listeners.size;
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}
