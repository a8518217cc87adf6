// Real multi-node Redis on loopback for tests: a primary with replicas watched by three sentinels, or a
// cluster of masters (with a slot migration helper). Every process runs from its own temporary folder on
// free ports; stop() kills them all and removes the folders. Suites skip with `skipWithoutRedisServer`
// when /usr/bin/redis-server is absent; nothing here reads REDIS_URL.
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { freePort } from './free-port.js';

export const REDIS_SERVER = '/usr/bin/redis-server';
export const REDIS_CLI = '/usr/bin/redis-cli';
export const skipWithoutRedisServer =
  existsSync(REDIS_SERVER) && existsSync(REDIS_CLI)
    ? false
    : `${REDIS_SERVER} / ${REDIS_CLI} not installed: multi-node Redis suite skipped`;

const run = promisify(execFile);

export interface RedisProcess {
  readonly port: number;
  readonly dir: string;
  readonly child: ChildProcess;
  /** A plain client to this one node (closed by stop()). */
  admin(): Redis;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
}

/** One set of processes; stop() ends every process it started and removes their folders. */
export class RedisTopology {
  readonly #processes: RedisProcess[] = [];
  readonly #clients: Redis[] = [];
  readonly #root = mkdtempSync(join(tmpdir(), 'toolgate-redis-topology-'));

  /** Starts one redis-server (or sentinel) with `lines` added to its configuration file. */
  async start(lines: readonly string[], sentinel = false): Promise<RedisProcess> {
    const port = await freePort();
    const folder = mkdtempSync(join(this.#root, `${port}-`));
    const conf = join(folder, sentinel ? 'sentinel.conf' : 'redis.conf');
    writeFileSync(
      conf,
      [
        `port ${port}`,
        'bind 127.0.0.1',
        `dir ${folder}`,
        ...(sentinel ? [] : ['save ""', 'appendonly no']),
        ...lines,
        '',
      ].join('\n'),
    );
    const child = spawn(REDIS_SERVER, sentinel ? [conf, '--sentinel'] : [conf], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const clients = this.#clients;
    const node: RedisProcess = {
      port,
      dir: folder,
      child,
      admin() {
        const client = new Redis({
          host: '127.0.0.1',
          port,
          maxRetriesPerRequest: 1,
          lazyConnect: false,
        });
        client.on('error', () => undefined);
        clients.push(client);
        return client;
      },
      async kill(signal = 'SIGKILL') {
        if (child.exitCode !== null || child.signalCode !== null) return;
        const exited = new Promise((r) => child.once('exit', r));
        child.kill(signal);
        await exited;
      },
    };
    this.#processes.push(node);
    const probe = node.admin();
    await waitFor(`redis on ${port}`, async () =>
      (await probe.ping()) === 'PONG' ? true : undefined,
    );
    return node;
  }

  async stop(): Promise<void> {
    for (const client of this.#clients) client.disconnect();
    await Promise.all(this.#processes.map((p) => p.kill('SIGKILL')));
    rmSync(this.#root, { recursive: true, force: true });
  }
}

export interface SentinelSet {
  readonly topology: RedisTopology;
  readonly masterName: string;
  readonly primary: RedisProcess;
  readonly replicas: readonly RedisProcess[];
  readonly sentinels: readonly RedisProcess[];
  /** `redis+sentinel://127.0.0.1:p1,…/<masterName>` */
  readonly url: string;
  /** The port the sentinels currently report as primary. */
  currentPrimaryPort(): Promise<number>;
}

/**
 * A primary, `replicas` replicas and three sentinels (quorum 2) with short timings: the primary is
 * declared down after `downAfterMs` and a failover retried after `failoverTimeoutMs`. Resolves once
 * every replica is in sync and every sentinel knows the replicas and the other sentinels.
 */
export async function startSentinelSet(
  options: { replicas?: number; downAfterMs?: number; failoverTimeoutMs?: number } = {},
): Promise<SentinelSet> {
  const topology = new RedisTopology();
  const masterName = 'toolgate';
  const replicaCount = options.replicas ?? 1;
  try {
    const primary = await topology.start([]);
    const replicas: RedisProcess[] = [];
    for (let i = 0; i < replicaCount; i++)
      replicas.push(await topology.start([`replicaof 127.0.0.1 ${primary.port}`]));
    for (const replica of replicas) {
      const admin = replica.admin();
      await waitFor('replica in sync', async () =>
        /master_link_status:up/.test(await admin.info('replication')) ? true : undefined,
      );
    }
    const sentinels: RedisProcess[] = [];
    for (let i = 0; i < 3; i++)
      sentinels.push(
        await topology.start(
          [
            `sentinel monitor ${masterName} 127.0.0.1 ${primary.port} 2`,
            `sentinel down-after-milliseconds ${masterName} ${options.downAfterMs ?? 1000}`,
            `sentinel failover-timeout ${masterName} ${options.failoverTimeoutMs ?? 3000}`,
            `sentinel parallel-syncs ${masterName} 1`,
          ],
          true,
        ),
      );
    for (const sentinel of sentinels) {
      const admin = sentinel.admin();
      await waitFor('sentinels to know each other and the replicas', async () => {
        const others = (await admin.call('SENTINEL', 'SENTINELS', masterName)) as unknown[];
        const known = (await admin.call('SENTINEL', 'REPLICAS', masterName)) as unknown[];
        return others.length === 2 && known.length === replicaCount ? true : undefined;
      });
    }
    const first = sentinels[0]?.admin();
    return {
      topology,
      masterName,
      primary,
      replicas,
      sentinels,
      url: `redis+sentinel://${sentinels.map((s) => `127.0.0.1:${s.port}`).join(',')}/${masterName}`,
      async currentPrimaryPort() {
        const reply = (await first?.call('SENTINEL', 'GET-MASTER-ADDR-BY-NAME', masterName)) as
          [string, string] | null;
        return Number(reply?.[1] ?? 0);
      },
    };
  } catch (error) {
    await topology.stop();
    throw error;
  }
}

export interface ClusterSet {
  readonly topology: RedisTopology;
  readonly masters: readonly RedisProcess[];
  /** `redis+cluster://127.0.0.1:p1,…` */
  readonly url: string;
  /** The master that serves `slot` now. */
  ownerOf(slot: number): Promise<RedisProcess>;
  /**
   * Moves `slot` to `to` the way `redis-cli --cluster reshard` does: IMPORTING on the target, MIGRATING
   * on the source, MIGRATE key by key (waiting `pauseMs` after each, so traffic meets the half-moved
   * slot), then SETSLOT NODE everywhere. Returns how many keys were moved.
   */
  migrateSlot(slot: number, to: RedisProcess, pauseMs?: number): Promise<number>;
  /** Errors the masters returned so far, by kind (INFO errorstats: ASK, MOVED, TRYAGAIN, …). */
  errorStats(): Promise<Record<string, number>>;
}

/** Three (or `masters`) cluster masters without replicas, all slots assigned, state ok. */
export async function startCluster(options: { masters?: number } = {}): Promise<ClusterSet> {
  const topology = new RedisTopology();
  try {
    const masters: RedisProcess[] = [];
    for (let i = 0; i < (options.masters ?? 3); i++)
      masters.push(
        await topology.start([
          'cluster-enabled yes',
          'cluster-config-file nodes.conf',
          'cluster-node-timeout 5000',
        ]),
      );
    await run(REDIS_CLI, [
      '--cluster',
      'create',
      ...masters.map((m) => `127.0.0.1:${m.port}`),
      '--cluster-yes',
    ]);
    const admins = new Map(masters.map((m) => [m, m.admin()] as const));
    for (const admin of admins.values())
      await waitFor('cluster_state:ok', async () => {
        const info = (await admin.call('CLUSTER', 'INFO')) as string;
        return /cluster_state:ok/.test(info) && /cluster_known_nodes:3/.test(info)
          ? true
          : undefined;
      });
    const idOf = async (m: RedisProcess) =>
      (await (admins.get(m) as Redis).call('CLUSTER', 'MYID')) as string;
    const ids = new Map<RedisProcess, string>();
    for (const m of masters) ids.set(m, await idOf(m));
    const ownerOf = async (slot: number): Promise<RedisProcess> => {
      const first = admins.get(masters[0] as RedisProcess) as Redis;
      const ranges = (await first.call('CLUSTER', 'SLOTS')) as Array<
        [number, number, [string, number]]
      >;
      const range = ranges.find(([lo, hi]) => slot >= lo && slot <= hi);
      const owner = masters.find((m) => m.port === Number(range?.[2][1]));
      if (!owner) throw new Error(`no owner for slot ${slot}`);
      return owner;
    };
    return {
      topology,
      masters,
      url: `redis+cluster://${masters.map((m) => `127.0.0.1:${m.port}`).join(',')}`,
      ownerOf,
      async migrateSlot(slot, to, pauseMs = 0) {
        const from = await ownerOf(slot);
        if (from === to) throw new Error('slot already on the target');
        const source = admins.get(from) as Redis;
        const target = admins.get(to) as Redis;
        await target.call('CLUSTER', 'SETSLOT', slot, 'IMPORTING', ids.get(from) as string);
        await source.call('CLUSTER', 'SETSLOT', slot, 'MIGRATING', ids.get(to) as string);
        let moved = 0;
        for (;;) {
          const keys = (await source.call('CLUSTER', 'GETKEYSINSLOT', slot, 1)) as string[];
          if (keys.length === 0) break;
          await source.call('MIGRATE', '127.0.0.1', to.port, '', 0, 5000, 'KEYS', ...keys);
          moved += keys.length;
          if (pauseMs > 0) await new Promise((r) => setTimeout(r, pauseMs));
        }
        const targetId = ids.get(to) as string;
        await target.call('CLUSTER', 'SETSLOT', slot, 'NODE', targetId);
        await source.call('CLUSTER', 'SETSLOT', slot, 'NODE', targetId);
        for (const m of masters)
          if (m !== from && m !== to)
            await (admins.get(m) as Redis).call('CLUSTER', 'SETSLOT', slot, 'NODE', targetId);
        return moved;
      },
      async errorStats() {
        const totals: Record<string, number> = {};
        for (const admin of admins.values()) {
          const info = await admin.info('errorstats');
          for (const m of info.matchAll(/errorstat_([A-Z]+):count=(\d+)/g))
            totals[m[1] as string] = (totals[m[1] as string] ?? 0) + Number(m[2]);
        }
        return totals;
      },
    };
  } catch (error) {
    await topology.stop();
    throw error;
  }
}
