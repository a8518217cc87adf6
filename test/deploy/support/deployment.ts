// The reference deployment (deploy/local/start.sh) as the failure scenario drives it: started in a run
// folder of its own on a free block of loopback ports with databases of its own, parts killed and started
// by name, and removed afterwards. Every action goes through the operator's scripts and signals, nothing
// reaches inside a process.
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);
const SCRIPTS = join(process.cwd(), 'deploy', 'local');

/** Ports of the deployment: start.sh's offsets from its base port (deploy/local/common.sh). */
export const OFFSETS = {
  mcp: 80,
  paymentsLb: 81,
  haproxyStats: 82,
  'gateway-1': 90,
  'gateway-2': 91,
  'gateway-3': 92,
  'payments-1': 95,
  'payments-2': 96,
  'redis-primary': 379,
  'redis-replica': 380,
  'sentinel-1': 389,
  'sentinel-2': 390,
  'sentinel-3': 391,
  prometheus: 490,
} as const;

async function portFree(port: number): Promise<boolean> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A base port whose every offset is free now (another process could take one before start.sh does). */
async function freeBase(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = 20000 + 1000 * Math.floor(Math.random() * 40);
    const ports = Object.values(OFFSETS).map((offset) => base + offset);
    if ((await Promise.all(ports.map(portFree))).every(Boolean)) return base;
  }
  throw new Error('no free block of ports for the deployment');
}

export class Deployment {
  private constructor(
    readonly base: number,
    readonly runDir: string,
    readonly dbPrefix: string,
    private readonly databaseUrl: string,
  ) {}

  static async create(databaseUrl: string): Promise<Deployment> {
    const runDir = mkdtempSync(join(tmpdir(), 'toolgate-deploy-'));
    const prefix = `tg_failover_${process.pid}_${Date.now().toString(36)}`;
    return new Deployment(await freeBase(), runDir, prefix, databaseUrl);
  }

  port(part: keyof typeof OFFSETS): number {
    return this.base + OFFSETS[part];
  }

  get mcpUrl(): string {
    return `http://127.0.0.1:${this.port('mcp')}/mcp`;
  }

  private get env(): NodeJS.ProcessEnv {
    return {
      ...process.env,
      DATABASE_URL: this.databaseUrl,
      TOOLGATE_DEPLOY_RUN_DIR: this.runDir,
      TOOLGATE_DEPLOY_BASE_PORT: String(this.base),
      TOOLGATE_DEPLOY_DB_PREFIX: this.dbPrefix,
    };
  }

  /** start.sh with the given parts (all when none); resolves once they are ready, rejects with its log. */
  async start(...parts: string[]): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      const child = spawn(join(SCRIPTS, 'start.sh'), parts, { env: this.env, stdio: 'pipe' });
      let output = '';
      child.stdout.on('data', (c: Buffer) => (output += c.toString()));
      child.stderr.on('data', (c: Buffer) => (output += c.toString()));
      child.on('error', reject);
      child.on('exit', (code) =>
        code === 0 ? resolve() : reject(new Error(`start.sh ${parts.join(' ')}: ${output}`)),
      );
    });
  }

  async stop(...parts: string[]): Promise<void> {
    await run(join(SCRIPTS, 'stop.sh'), parts, { env: this.env, timeout: 60_000 });
  }

  /** A toolgate management command with the deployment's configuration (deploy/local/toolgate.sh). */
  async toolgate(...args: string[]): Promise<string> {
    const { stdout } = await run(join(SCRIPTS, 'toolgate.sh'), args, {
      env: this.env,
      timeout: 60_000,
    });
    return stdout;
  }

  /** Requests HAProxy has in progress on one server (its stats CSV, `scur`). */
  async haproxySessions(backend: string, server: string): Promise<number> {
    const response = await fetch(`http://127.0.0.1:${this.port('haproxyStats')}/stats;csv`);
    const lines = (await response.text()).split('\n');
    const columns = (lines[0] ?? '').replace(/^# /, '').split(',');
    const scur = columns.indexOf('scur');
    const line = lines.find((l) => l.startsWith(`${backend},${server},`));
    return Number(line?.split(',')[scur] ?? 0);
  }

  /**
   * Rate-limit decisions the gateway replicas made without Redis (`source="fallback"` in
   * toolgate_ratelimit_decisions_total), summed over the replicas' /metrics since each started.
   */
  async fallbackDecisions(): Promise<number> {
    let total = 0;
    for (const gateway of ['gateway-1', 'gateway-2', 'gateway-3'] as const) {
      const text = await (await fetch(`http://127.0.0.1:${this.port(gateway)}/metrics`)).text();
      for (const line of text.split('\n'))
        if (
          line.startsWith('toolgate_ratelimit_decisions_total{') &&
          line.includes('source="fallback"')
        )
          total += Number(line.split(' ').pop());
    }
    return total;
  }

  /** Prometheus's scrape targets as `job instance health`. */
  async scrapeTargets(): Promise<string[]> {
    const response = await fetch(`http://127.0.0.1:${this.port('prometheus')}/api/v1/targets`);
    const body = (await response.json()) as {
      data: { activeTargets: { labels: { job: string; instance: string }; health: string }[] };
    };
    return body.data.activeTargets.map((t) => `${t.labels.job} ${t.labels.instance} ${t.health}`);
  }

  pid(part: string): number {
    return Number(readFileSync(join(this.runDir, 'pids', `${part}.pid`), 'utf8').trim());
  }

  kill(part: string, signal: NodeJS.Signals): number {
    const pid = this.pid(part);
    process.kill(pid, signal);
    return pid;
  }

  /** The primary the sentinels name, as its port (undefined while none answers). */
  async sentinelPrimaryPort(): Promise<number | undefined> {
    for (const sentinel of ['sentinel-1', 'sentinel-2', 'sentinel-3'] as const) {
      try {
        const { stdout } = await run(
          'redis-cli',
          [
            '-p',
            String(this.port(sentinel)),
            '--raw',
            'SENTINEL',
            'get-master-addr-by-name',
            'toolgate',
          ],
          { timeout: 2000 },
        );
        const port = Number(stdout.trim().split('\n')[1]);
        if (Number.isInteger(port) && port > 0) return port;
      } catch {
        // this sentinel does not answer; ask the next
      }
    }
    return undefined;
  }

  async paymentsQuery<T extends pg.QueryResultRow>(
    sql: string,
    params: unknown[] = [],
  ): Promise<T[]> {
    const client = new pg.Client({
      connectionString: this.databaseUrlFor(`${this.dbPrefix}_payments`),
    });
    await client.connect();
    try {
      return (await client.query<T>(sql, params)).rows;
    } finally {
      await client.end();
    }
  }

  private databaseUrlFor(database: string): string {
    const url = new URL(this.databaseUrl);
    url.pathname = `/${database}`;
    return url.toString();
  }

  logTail(part: string, lines = 30): string {
    try {
      return readFileSync(join(this.runDir, 'logs', `${part}.log`), 'utf8')
        .split('\n')
        .slice(-lines)
        .join('\n');
    } catch {
      return '(no log)';
    }
  }

  /** Stops every part and removes the run folder and the two databases. */
  async remove(): Promise<void> {
    try {
      await this.stop();
    } finally {
      const client = new pg.Client({ connectionString: this.databaseUrl });
      await client.connect();
      try {
        for (const suffix of ['gateway', 'payments'])
          await client.query(`DROP DATABASE IF EXISTS "${this.dbPrefix}_${suffix}" WITH (FORCE)`);
      } finally {
        await client.end();
      }
      rmSync(this.runDir, { recursive: true, force: true });
    }
  }
}
