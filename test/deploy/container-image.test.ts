// The Dockerfile, checked without a Docker engine (this machine has only the client): it is parsed, its
// facts are compared with the code and with the Kubernetes manifests, and its runtime stage's file set is
// assembled in a temporary folder by following the runtime stage's own COPY instructions — the production
// dependencies installed by the deps stage's `npm ci --omit=dev` command, the build output, the files copied
// from the context — then `toolgate --version`, the gateway and the payment service are started from that
// folder, probed, health-checked with the image's HEALTHCHECK command and stopped with its STOPSIGNAL.
// Not exercised: `docker build` itself, the base images, the native binding compiled by the deps stage
// (the repository's compiled binding stands in; same Node ABI, same platform), the image's user and paths.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import {
  cpSync,
  readdirSync,
  renameSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, posix, relative } from 'node:path';
import { parse as parseYaml, parseAllDocuments } from 'yaml';
import { ENVIRONMENT_OVERRIDES } from '../../src/config/environment.js';
import { loadConfig } from '../../src/config/load.js';
import { finished, waitForSummary } from '../helpers/process.js';

const ROOT = process.cwd();
const K8S = join(ROOT, 'deploy', 'kubernetes');
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  version: string;
  engines: { node: string };
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

// --- a small Dockerfile reader: instructions (continuations joined, comments dropped) grouped by stage ---

interface Instruction {
  readonly keyword: string;
  readonly args: string;
}
interface Stage {
  readonly image: string;
  readonly name: string;
  readonly instructions: Instruction[];
}

function readDockerfile(text: string): Stage[] {
  const lines: string[] = [];
  let pending = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (pending === '' && (line === '' || line.startsWith('#'))) continue;
    if (line.startsWith('#')) continue; // a comment inside a continued instruction
    if (line.endsWith('\\')) {
      pending += `${line.slice(0, -1).trim()} `;
      continue;
    }
    lines.push(`${pending}${line}`.trim());
    pending = '';
  }
  assert.equal(pending, '', 'no dangling line continuation');
  const stages: Stage[] = [];
  for (const line of lines) {
    const match = /^([A-Za-z]+)\s+(.*)$/.exec(line);
    assert.ok(match, `an instruction: ${line}`);
    const keyword = (match[1] as string).toUpperCase();
    const args = match[2] as string;
    if (keyword === 'FROM') {
      const from = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(args);
      assert.ok(from, `FROM ${args}`);
      stages.push({
        image: from[1] as string,
        name: from[2] ?? String(stages.length),
        instructions: [],
      });
      continue;
    }
    const current = stages[stages.length - 1];
    assert.ok(current, `${keyword} comes after a FROM`);
    current.instructions.push({ keyword, args });
  }
  return stages;
}

const stages = readDockerfile(readFileSync(join(ROOT, 'Dockerfile'), 'utf8'));
const runtime = stages[stages.length - 1] as Stage;
const stageNamed = (name: string): Stage => {
  const found = stages.find((s) => s.name === name);
  assert.ok(found, `stage ${name}`);
  return found;
};
const all = (stage: Stage, keyword: string): string[] =>
  stage.instructions.filter((i) => i.keyword === keyword).map((i) => i.args);
const one = (stage: Stage, keyword: string): string => {
  const found = all(stage, keyword);
  assert.equal(found.length, 1, `one ${keyword} in stage ${stage.name}`);
  return found[0] as string;
};
const execForm = (args: string): string[] => {
  const parsed = JSON.parse(args) as unknown;
  assert.ok(
    Array.isArray(parsed) && parsed.every((a) => typeof a === 'string'),
    `exec form: ${args}`,
  );
  return parsed as string[];
};
/** `KEY=value KEY2="value 2"` pairs (ENV, LABEL). */
function pairs(args: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of args.matchAll(/([A-Za-z0-9_.-]+)=("([^"]*)"|\S+)/g))
    out[m[1] as string] = m[3] ?? (m[2] as string);
  return out;
}
const runtimeEnv = Object.assign({}, ...all(runtime, 'ENV').map(pairs)) as Record<string, string>;
const labels = Object.assign({}, ...all(runtime, 'LABEL').map(pairs)) as Record<string, string>;

/** WORKDIR of a stage (absolute). */
const workdir = (stage: Stage): string => one(stage, 'WORKDIR');

interface Copy {
  readonly from?: string;
  readonly sources: string[];
  readonly destination: string;
}
function copies(stage: Stage): Copy[] {
  return all(stage, 'COPY').map((args) => {
    const words = args.split(/\s+/);
    let from: string | undefined;
    while (words[0]?.startsWith('--')) {
      const flag = words.shift() as string;
      if (flag.startsWith('--from=')) from = flag.slice('--from='.length);
    }
    const destination = words.pop() as string;
    return { from, sources: words, destination };
  });
}

function deploymentsOf(): { image: string; runAsUser: number; ports: number[] }[] {
  const kustomization = parseYaml(readFileSync(join(K8S, 'kustomization.yaml'), 'utf8')) as {
    resources: string[];
  };
  const out: { image: string; runAsUser: number; ports: number[] }[] = [];
  for (const file of kustomization.resources)
    for (const doc of parseAllDocuments(readFileSync(join(K8S, file), 'utf8'))) {
      const o = doc.toJS() as {
        kind: string;
        spec: {
          template: {
            spec: {
              securityContext: { runAsUser: number };
              containers: { image: string; ports: { containerPort: number }[] }[];
            };
          };
        };
      };
      if (o.kind !== 'Deployment') continue;
      for (const c of o.spec.template.spec.containers)
        out.push({
          image: c.image,
          runAsUser: o.spec.template.spec.securityContext.runAsUser,
          ports: c.ports.map((p) => p.containerPort),
        });
    }
  return out;
}

test('base images are pinned by version, one Node version for every stage, within package.json engines', () => {
  const versions = new Set<string>();
  for (const stage of stages) {
    const match = /^node:(\d+)\.(\d+)\.(\d+)-(bookworm|bookworm-slim)$/.exec(stage.image);
    assert.ok(match, `${stage.name}: ${stage.image} is node:X.Y.Z-bookworm[-slim]`);
    versions.add(`${match[1]}.${match[2]}.${match[3]}`);
  }
  // The deps stage compiles the native binding for the runtime stage's Node: one version (same ABI).
  assert.equal(versions.size, 1, `one Node version: ${[...versions].join(', ')}`);
  const [major, minor] = ([...versions][0] as string).split('.').map(Number) as [number, number];
  // package.json engines: ^20.19.0 || ^22.13.0 || >=24 — the image uses the recommended line, 22.
  assert.match(manifest.engines.node, /\^22\.13\.0/);
  assert.ok(major === 22 && minor >= 13, 'Node 22.13 or later');
  assert.match(runtime.image, /-slim$/, 'the runtime stage is the slim image');
});

test('multi-stage: the build stage runs `npm run build`, the deps stage `npm ci --omit=dev`, the runtime copies both', () => {
  assert.ok(stages.length >= 3);
  assert.ok(all(stageNamed('build'), 'RUN').some((r) => r.includes('npm run build')));
  assert.ok(all(stageNamed('deps'), 'RUN').some((r) => /npm ci --omit=dev/.test(r)));
  const froms = copies(runtime).map((c) => c.from);
  assert.ok(froms.includes('build') && froms.includes('deps'));
  // `npm run build` is the TypeScript build the runtime's bin/toolgate.js loads (dist/src/cli/main.js).
  assert.equal(manifest.dependencies.typescript, undefined);
  assert.ok(manifest.devDependencies.typescript);
});

test('runtime: non-root numeric user, the ports, SIGTERM, a HEALTHCHECK, `node bin/toolgate.js` as entrypoint', () => {
  const user = one(runtime, 'USER');
  const uid = Number(user.split(':')[0]);
  assert.ok(
    Number.isInteger(uid) && uid > 0,
    `USER ${user} is a non-root uid (Kubernetes runAsNonRoot)`,
  );
  assert.equal(one(runtime, 'STOPSIGNAL'), 'SIGTERM');
  assert.deepEqual(execForm(one(runtime, 'ENTRYPOINT')), ['node', 'bin/toolgate.js']);
  const cmd = execForm(one(runtime, 'CMD'));
  assert.equal(cmd[0], 'gateway');
  const healthcheck = one(runtime, 'HEALTHCHECK');
  assert.match(healthcheck, /^(--\S+\s+)*CMD \[/);
  // The default ports of the three planes (the schema's defaults, through the real loader) are exposed.
  const defaults = loadConfig({ env: {} });
  const exposed = one(runtime, 'EXPOSE').split(/\s+/).map(Number);
  for (const port of [defaults.gateway.port, defaults.payments.port, defaults.admin.port])
    assert.ok(exposed.includes(port), `EXPOSE ${port}`);
  for (const d of deploymentsOf()) {
    assert.equal(d.runAsUser, uid, 'the manifests run as the image user');
    for (const port of d.ports) assert.ok(exposed.includes(port), `EXPOSE ${port}`);
  }
  // Every ENV the image sets is read by the code (src/config/environment.ts) or by the HEALTHCHECK.
  const known = new Set(ENVIRONMENT_OVERRIDES.map((o) => o.variable));
  for (const name of Object.keys(runtimeEnv))
    assert.ok(known.has(name) || name === 'NODE_ENV' || name === 'HEALTHCHECK_URL', `ENV ${name}`);
  assert.ok(healthcheck.includes('HEALTHCHECK_URL'));
  assert.equal(new URL(runtimeEnv.HEALTHCHECK_URL as string).port, String(defaults.gateway.port));
});

test('the image name and version: LABEL, package.json, the kustomization and the Deployments agree', () => {
  const title = labels['org.opencontainers.image.title'];
  const version = labels['org.opencontainers.image.version'];
  assert.equal(title, 'toolgate');
  assert.equal(version, manifest.version);
  const kustomization = parseYaml(readFileSync(join(K8S, 'kustomization.yaml'), 'utf8')) as {
    images: { name: string; newTag: string }[];
  };
  assert.deepEqual(
    kustomization.images.map((i) => [i.name, i.newTag]),
    [[title, version]],
  );
  const deployments = deploymentsOf();
  assert.ok(deployments.length >= 2);
  for (const d of deployments) assert.equal(d.image, title, 'the kustomization sets the tag');
});

/** Simple .dockerignore matching: a pattern excludes itself and everything below it. */
function ignored(path: string, patterns: string[]): boolean {
  return patterns.some((p) => {
    if (p.startsWith('*')) return path.endsWith(p.slice(1));
    return path === p || path.startsWith(`${p}/`);
  });
}
const dockerignore = readFileSync(join(ROOT, '.dockerignore'), 'utf8')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l !== '' && !l.startsWith('#'));

test('.dockerignore keeps the host’s node_modules and builds out, and nothing a COPY needs', () => {
  assert.ok(
    !dockerignore.some((p) => p.startsWith('!')),
    'no exceptions (the simple matcher is exact)',
  );
  for (const excluded of ['node_modules', 'dist', 'data', '.git', '.env'])
    assert.ok(ignored(excluded, dockerignore), `${excluded} is excluded`);
  for (const stage of stages)
    for (const copy of copies(stage).filter((c) => c.from === undefined))
      for (const source of copy.sources) {
        assert.ok(
          !ignored(posix.normalize(source), dockerignore),
          `${stage.name}: COPY ${source} is in the context`,
        );
        assert.ok(existsSync(join(ROOT, source)), `${source} exists`);
      }
});

/** Every file below `dir`. */
function filesBelow(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesBelow(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

test('the runtime copies only dist/src: no compiled source imports a file outside it', () => {
  const distSrc = join(ROOT, 'dist', 'src');
  const compiled = filesBelow(distSrc).filter((f) => f.endsWith('.js'));
  assert.ok(compiled.length > 100);
  for (const file of compiled) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/(?:from|import\()\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
      const target = join(dirname(file), m[1] as string);
      assert.ok(
        target.startsWith(`${distSrc}/`),
        `${relative(ROOT, file)} imports ${m[1]}, outside dist/src (not in the image)`,
      );
    }
  }
  const copied = copies(runtime)
    .filter((c) => c.from === 'build')
    .flatMap((c) => c.sources.map((s) => posix.relative(workdir(stageNamed('build')), s)));
  assert.deepEqual(copied, ['dist/src']);
});

// --- the runtime stage's file set, assembled and started ---

const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/**
 * Runs the deps stage's RUN in `dir`: its `npm ci` step as written (offline-first, bounded in time); its
 * `npm rebuild better-sqlite3` step replaced by the repository's compiled binding (a compile takes minutes
 * on this machine); `npm cache clean` left out (it would empty this user's cache). Returns a skip reason when
 * npm cannot install (no registry and no cache).
 */
function runDepsStage(dir: string): string | undefined {
  const deps = stageNamed('deps');
  for (const copy of copies(deps)) {
    assert.equal(copy.from, undefined);
    for (const source of copy.sources) cpSync(join(ROOT, source), join(dir, source));
  }
  const steps = all(deps, 'RUN').flatMap((run) => run.split('&&').map((s) => s.trim()));
  assert.ok(steps.length > 0);
  for (const step of steps) {
    const words = step.split(/\s+/);
    if (words[0] !== 'npm') assert.fail(`unexpected deps step: ${step}`);
    if (words[1] === 'ci') {
      const result = spawnSync(NPM, [...words.slice(1), '--prefer-offline'], {
        cwd: dir,
        encoding: 'utf8',
        timeout: 90_000,
        env: { ...process.env, npm_config_update_notifier: 'false' },
      });
      if (result.status !== 0)
        return `npm ci --omit=dev could not install (${result.error?.message ?? result.stderr.split('\n').slice(-3).join(' ')})`;
    } else if (words[1] === 'rebuild' && words[2] === 'better-sqlite3') {
      const release = join('node_modules', 'better-sqlite3', 'build', 'Release');
      mkdirSync(join(dir, release), { recursive: true });
      cpSync(join(ROOT, release, 'better_sqlite3.node'), join(dir, release, 'better_sqlite3.node'));
    } else if (words[1] === 'cache' && words[2] === 'clean') {
      continue;
    } else assert.fail(`unexpected deps step: ${step}`);
  }
  return undefined;
}

/** Follows the runtime stage's COPY instructions into `dir` (its WORKDIR). */
function assembleRuntime(dir: string): string | undefined {
  const depsDir = mkdtempSync(join(tmpdir(), 'toolgate-image-deps-'));
  try {
    const skip = runDepsStage(depsDir);
    if (skip !== undefined) return skip;
    const buildWorkdir = workdir(stageNamed('build'));
    for (const copy of copies(runtime)) {
      for (const source of copy.sources) {
        let from: string;
        if (copy.from === undefined) from = join(ROOT, source);
        else if (copy.from === 'deps')
          from = join(depsDir, posix.relative(workdir(stageNamed('deps')), source));
        else if (copy.from === 'build') {
          // The build stage's output is this checkout's own build (`npm run build` ran before the tests).
          const relative = posix.relative(buildWorkdir, source);
          assert.ok(!relative.startsWith('..'), `${source} lies in the build stage's WORKDIR`);
          from = join(ROOT, relative);
        } else return assert.fail(`COPY --from=${copy.from}`);
        const to = copy.destination.endsWith('/')
          ? join(dir, copy.destination, posix.basename(source))
          : join(dir, copy.destination);
        mkdirSync(dirname(to), { recursive: true });
        // The deps stage's folder is thrown away afterwards: its node_modules moves rather than copies.
        if (copy.from === 'deps') renameSync(from, to);
        else cpSync(from, to, { recursive: true });
      }
    }
    return undefined;
  } finally {
    rmSync(depsDir, { recursive: true, force: true });
  }
}

/** A ConfigMap's configuration file from deploy/kubernetes, written into `dir`. */
function k8sConfig(file: string, key: string, dir: string): string {
  const map = parseYaml(readFileSync(join(K8S, file), 'utf8')) as { data: Record<string, string> };
  const path = join(dir, key);
  writeFileSync(path, map.data[key] as string);
  return path;
}

async function get(url: string): Promise<{ status: number; body: string }> {
  const response = await fetch(url);
  return { status: response.status, body: await response.text() };
}

function healthcheck(image: string, url: string): number | null {
  const args = execForm(one(runtime, 'HEALTHCHECK').replace(/^(--\S+\s+)*CMD\s+/, ''));
  assert.equal(args[0], 'node');
  const result = spawnSync(process.execPath, args.slice(1), {
    cwd: image,
    env: { PATH: process.env.PATH, HEALTHCHECK_URL: url },
    timeout: 10_000,
  });
  return result.status;
}

test('the runtime file set works without dev dependencies: --version, gateway and payment service start, probe, stop', async (t) => {
  const image = mkdtempSync(join(tmpdir(), 'toolgate-image-'));
  const scratch = mkdtempSync(join(tmpdir(), 'toolgate-image-run-'));
  t.after(() => {
    rmSync(image, { recursive: true, force: true });
    rmSync(scratch, { recursive: true, force: true });
  });
  const started = Date.now();
  const skip = assembleRuntime(image);
  if (skip !== undefined) {
    t.skip(skip);
    return;
  }
  t.diagnostic(`runtime file set assembled in ${Date.now() - started} ms`);

  // Production dependencies only: no devDependency is installed, every dependency is.
  for (const dev of Object.keys(manifest.devDependencies))
    assert.ok(
      !existsSync(join(image, 'node_modules', dev)),
      `${dev} (a devDependency) is not in the image`,
    );
  for (const dep of Object.keys(manifest.dependencies))
    assert.ok(
      existsSync(join(image, 'node_modules', dep, 'package.json')),
      `${dep} is in the image`,
    );
  assert.ok(!existsSync(join(image, 'dist', 'test')), 'no compiled tests in the image');

  const entrypoint = execForm(one(runtime, 'ENTRYPOINT'));
  const command = (args: string[]) => [...entrypoint.slice(1), ...args];
  const env = (extra: Record<string, string>) => ({
    PATH: process.env.PATH,
    ...runtimeEnv,
    TOOLGATE_DATA_DIR: join(scratch, 'data'),
    TOOLGATE_LOG_LEVEL: 'warn',
    ...extra,
  });

  const version = spawnSync(process.execPath, command(['--version']), {
    cwd: image,
    encoding: 'utf8',
    env: env({}),
  });
  assert.equal(version.status, 0, version.stderr);
  assert.match(version.stdout, new RegExp(`^toolgate ${manifest.version.replace(/\./g, '\\.')} `));

  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const secret = () => randomBytes(24).toString('hex');
  const bankLookupKey = secret();
  const services = [
    {
      args: [
        ...execForm(one(runtime, 'CMD')),
        '--config',
        k8sConfig('gateway-config.yaml', 'gateway.yaml', scratch),
      ],
      env: env({
        TOOLGATE_GATEWAY_HOST: '127.0.0.1',
        TOOLGATE_GATEWAY_PORT: '0',
        TOOLGATE_KEY_PEPPER: secret(),
        TOOLGATE_BANK_LOOKUP_KEY: bankLookupKey,
        TOOLGATE_REQUEST_STATE_SECRET: secret(),
        TOOLGATE_GATEWAY_ASSERTION_JWK: JSON.stringify({
          ...privateKey.export({ format: 'jwk' }),
          kid: 't',
        }),
      }),
      url: 'gatewayUrl',
      metrics: true,
    },
    {
      args: ['payments', '--config', k8sConfig('payments-config.yaml', 'payments.yaml', scratch)],
      env: env({
        TOOLGATE_PAYMENTS_HOST: '127.0.0.1',
        TOOLGATE_PAYMENTS_PORT: '0',
        TOOLGATE_PAYMENTS_OPERATOR_TOKEN: secret(),
        TOOLGATE_BANK_LOOKUP_KEY: bankLookupKey,
      }),
      url: 'paymentsUrl',
      metrics: true,
    },
  ];
  // Both services at once (as in a pod each): started, probed and stopped in parallel.
  const runOne = async (service: (typeof services)[number]): Promise<void> => {
    const child = spawn(process.execPath, command([...service.args, '--json']), {
      cwd: image,
      env: service.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    }) as ReturnType<typeof spawn> & { output: { stdout: string; stderr: string } };
    child.output = { stdout: '', stderr: '' };
    child.stdout?.on('data', (c: Buffer) => (child.output.stdout += c.toString()));
    child.stderr?.on('data', (c: Buffer) => (child.output.stderr += c.toString()));
    try {
      const summary = await waitForSummary(child, 30_000);
      const base = summary[service.url] as string;
      assert.equal((await get(`${base}/healthz`)).status, 200);
      const ready = await get(`${base}/readyz`);
      assert.equal(ready.status, 200, ready.body);
      if (service.metrics) {
        const metrics = await get(`${base}/metrics`);
        assert.equal(metrics.status, 200);
        assert.match(metrics.body, /^process_cpu_user_seconds_total /m);
      }
      // The image's HEALTHCHECK command, run with the image's Node: healthy here, unhealthy on a dead port.
      assert.equal(healthcheck(image, `${base}/healthz`), 0);
    } finally {
      child.kill(one(runtime, 'STOPSIGNAL') as NodeJS.Signals);
      const stopped = await finished(child, 30_000);
      assert.equal(stopped.code, 0, stopped.stderr.slice(-500));
      // The manifests' configuration starts clean: no warning or error logged from start to stop.
      const logged = `${stopped.stdout}\n${stopped.stderr}`;
      assert.doesNotMatch(logged, /"level":(40|50|60)/, logged.slice(0, 1000));
    }
  };
  await Promise.all(services.map(runOne));
  assert.equal(healthcheck(image, 'http://127.0.0.1:9/healthz'), 1);
  t.diagnostic(`whole check took ${Date.now() - started} ms`);
});
