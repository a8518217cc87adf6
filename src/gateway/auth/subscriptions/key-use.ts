// Records when each key was last accepted, off the request path: the key check only notes the key's hash
// in memory; a timer writes the noted uses in one batch, so a key's `last_used_at` moves at most once per
// interval (a minute by default) however busy it is.
import type { SubscriptionStore } from './store.js';

export class KeyUseRecorder {
  private pending = new Map<string, string>();
  private readonly lastWritten = new Map<string, number>();
  private readonly timer: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: Pick<SubscriptionStore, 'recordKeyUse'>,
    private readonly intervalMs = 60_000,
    private readonly clock: () => number = Date.now,
    private readonly maxEntries = 10_000,
  ) {
    this.timer = setInterval(() => void this.flush(), intervalMs);
    this.timer.unref();
  }

  used(keyHash: string): void {
    const now = this.clock();
    const written = this.lastWritten.get(keyHash);
    if (written !== undefined && now - written < this.intervalMs) return;
    if (this.pending.has(keyHash) || this.pending.size >= this.maxEntries) return;
    this.pending.set(keyHash, new Date(now).toISOString());
  }

  /** Writes the noted uses; a failed write is dropped (last use is informational). */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      if (this.pending.size === 0) return;
      const batch = this.pending;
      this.pending = new Map();
      const now = this.clock();
      if (this.lastWritten.size + batch.size > this.maxEntries) this.lastWritten.clear();
      for (const hash of batch.keys()) this.lastWritten.set(hash, now);
      await this.store.recordKeyUse(batch).catch(() => undefined);
    });
    return this.flushing;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
