// Storage of the development authorization server (oidc-provider's adapter interface): every model
// (clients, grants, sessions, codes, refresh tokens, interactions) in one process-wide map per server,
// each entry dropped when it expires. Development only, by decision: state ends with the process
// (docs/decisions.md, D-099). Our own rather than oidc-provider's quick-start adapter, whose
// startup warning asks for exactly this choice to be made deliberately.

interface Entry {
  readonly payload: Record<string, unknown>;
  readonly expiresAt: number | undefined;
}

export interface MemoryStore {
  readonly entries: Map<string, Entry>;
  readonly now: () => number;
}

export function createMemoryStore(now: () => number = Date.now): MemoryStore {
  return { entries: new Map(), now };
}

/** Rewrites a model's payload before it is stored (per model name). */
export type StoreFilter = (
  model: string,
  payload: Record<string, unknown>,
) => Record<string, unknown>;

/** An adapter class for oidc-provider's `adapter` option, bound to one store. */
export function memoryAdapter(
  store: MemoryStore,
  filter: StoreFilter = (_model, payload) => payload,
) {
  return class MemoryAdapter {
    constructor(private readonly model: string) {}

    private key(id: string): string {
      return `${this.model}:${id}`;
    }

    private live(key: string): Record<string, unknown> | undefined {
      const entry = store.entries.get(key);
      if (entry === undefined) return undefined;
      if (entry.expiresAt !== undefined && entry.expiresAt <= store.now()) {
        store.entries.delete(key);
        return undefined;
      }
      return entry.payload;
    }

    async upsert(id: string, payload: Record<string, unknown>, expiresIn?: number): Promise<void> {
      const expiresAt = expiresIn === undefined ? undefined : store.now() + expiresIn * 1000;
      store.entries.set(this.key(id), { payload: filter(this.model, { ...payload }), expiresAt });
      for (const [name, value] of [
        ['grant', payload.grantId],
        ['uid', payload.uid],
        ['userCode', payload.userCode],
      ] as const)
        if (typeof value === 'string')
          store.entries.set(`${this.model}:${name}:${value}:${id}`, { payload: { id }, expiresAt });
    }

    async find(id: string): Promise<Record<string, unknown> | undefined> {
      return this.live(this.key(id));
    }

    async findByUid(uid: string): Promise<Record<string, unknown> | undefined> {
      return this.findBy('uid', uid);
    }

    async findByUserCode(userCode: string): Promise<Record<string, unknown> | undefined> {
      return this.findBy('userCode', userCode);
    }

    async consume(id: string): Promise<void> {
      const payload = this.live(this.key(id));
      if (payload !== undefined) payload.consumed = Math.floor(store.now() / 1000);
    }

    async destroy(id: string): Promise<void> {
      store.entries.delete(this.key(id));
    }

    /** Revokes every artefact of a grant, whatever its model (oidc-provider calls it per model). */
    async revokeByGrantId(grantId: string): Promise<void> {
      for (const key of [...store.entries.keys()]) {
        const match = /^([^:]+):grant:(.+):([^:]+)$/.exec(key);
        if (match === null || match[2] !== grantId) continue;
        store.entries.delete(key);
        store.entries.delete(`${match[1]}:${match[3]}`);
      }
    }

    private findBy(index: string, value: string): Record<string, unknown> | undefined {
      const prefix = `${this.model}:${index}:${value}:`;
      for (const key of store.entries.keys())
        if (key.startsWith(prefix)) return this.live(this.key(key.slice(prefix.length)));
      return undefined;
    }
  };
}
