// Environment overrides and ${env:NAME} references. Secrets belong in the environment, not in the file.
import { ConfigError } from './errors.js';

export type Environment = Readonly<Record<string, string | undefined>>;

const REFERENCE = /\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** Replaces `${env:NAME}` inside string values; a reference to an unset variable is an error. */
export function substituteEnvReferences(value: unknown, env: Environment, path = ''): unknown {
  if (typeof value === 'string') {
    return value.replace(REFERENCE, (_match, name: string) => {
      const found = env[name];
      if (found === undefined) {
        throw new ConfigError(
          `${path || '(root)'}: environment variable ${name} is referenced but not set`,
        );
      }
      return found;
    });
  }
  if (Array.isArray(value))
    return value.map((item, i) => substituteEnvReferences(item, env, `${path}[${i}]`));
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) {
      out[key] = substituteEnvReferences(child, env, path ? `${path}.${key}` : key);
    }
    return out;
  }
  return value;
}

interface Override {
  readonly variable: string;
  readonly paths: readonly (readonly string[])[];
  readonly kind: 'string' | 'port';
}

/** Environment variables that override configuration keys (documented in docs/configuration.md). */
export const ENVIRONMENT_OVERRIDES: readonly Override[] = [
  { variable: 'TOOLGATE_ENVIRONMENT', paths: [['environment']], kind: 'string' },
  { variable: 'TOOLGATE_DATA_DIR', paths: [['dataDir']], kind: 'string' },
  { variable: 'TOOLGATE_LOG_LEVEL', paths: [['logging', 'level']], kind: 'string' },
  {
    variable: 'DATABASE_URL',
    paths: [
      ['gateway', 'database', 'url'],
      ['payments', 'database', 'url'],
    ],
    kind: 'string',
  },
  { variable: 'REDIS_URL', paths: [['gateway', 'redis', 'url']], kind: 'string' },
  { variable: 'TOOLGATE_GATEWAY_HOST', paths: [['gateway', 'host']], kind: 'string' },
  { variable: 'TOOLGATE_GATEWAY_PORT', paths: [['gateway', 'port']], kind: 'port' },
  { variable: 'TOOLGATE_PAYMENTS_HOST', paths: [['payments', 'host']], kind: 'string' },
  { variable: 'TOOLGATE_PAYMENTS_PORT', paths: [['payments', 'port']], kind: 'port' },
  { variable: 'TOOLGATE_ADMIN_HOST', paths: [['admin', 'host']], kind: 'string' },
  { variable: 'TOOLGATE_ADMIN_PORT', paths: [['admin', 'port']], kind: 'port' },
  { variable: 'TOOLGATE_ADMIN_TOKEN', paths: [['admin', 'bootstrapToken']], kind: 'string' },
];

export function applyEnvironment(
  config: Record<string, unknown>,
  env: Environment,
): Record<string, unknown> {
  const out = structuredClone(config);
  for (const override of ENVIRONMENT_OVERRIDES) {
    const raw = env[override.variable];
    if (raw === undefined || raw === '') continue;
    const value = override.kind === 'port' ? parsePort(override.variable, raw) : raw;
    for (const path of override.paths) setPath(out, path, value);
  }
  return out;
}

function parsePort(variable: string, raw: string): number {
  if (!/^\d{1,5}$/.test(raw) || Number(raw) > 65535) {
    throw new ConfigError(
      `${variable}: "${raw}" is not a valid port (expected an integer 0-65535)`,
    );
  }
  return Number(raw);
}

function setPath(target: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let node = target;
  for (const key of path.slice(0, -1)) {
    const child = node[key];
    if (typeof child !== 'object' || child === null || Array.isArray(child)) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  const last = path[path.length - 1];
  if (last !== undefined) node[last] = value;
}
