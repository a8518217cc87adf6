// Loads the configuration once at startup: file (YAML or JSON) → ${env:NAME} substitution → environment
// overrides → schema validation with defaults → the checks a schema cannot express → what follows from it,
// resolved once (`resolved`) → deep freeze. The only module that reads the environment (it receives it as
// an argument; the CLI entry passes process.env).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, extname, isAbsolute, normalize, resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { parse as parseYaml } from 'yaml';
import { ConfigSchema, type Config, type FrozenConfig } from './schema.js';
import { validateAgainstSchema } from './validate.js';
import { checkRateLimitConfig } from './gateway-ratelimit.js';
import { checkRedisConfig } from './redis.js';
import { checkBudgetsConfig } from './gateway-governance-budgets.js';
import { checkDevIdentityProviderConfig } from './gateway-auth.js';
import { checkGovernanceConfig } from './gateway-governance.js';
import { checkFederationConfig } from './gateway-federation.js';
import { checkWebhooksConfig } from './payments-webhooks.js';
import { resolveSettings } from './gateway-identity.js';
import { accountsDocumentFile, paymentOrderDocumentFile } from './gateway-mcp.js';
import { applyEnvironment, substituteEnvReferences, type Environment } from './environment.js';
import { ConfigError } from './errors.js';
import { isPlainObject } from '../shared/is-plain-object.js';

export { ConfigError } from './errors.js';

const SHIPPED_DOCUMENTS = new Set([paymentOrderDocumentFile, accountsDocumentFile]);
export type { Environment } from './environment.js';

export interface LoadConfigOptions {
  /** Path from `--config`; falls back to TOOLGATE_CONFIG. */
  readonly configPath?: string | undefined;
  readonly env: Environment;
  /** Values merged over the file before validation (used by tests and the CLI). */
  readonly overrides?: Record<string, unknown>;
}

export function loadConfig(options: LoadConfigOptions): FrozenConfig {
  const path = options.configPath ?? nonEmpty(options.env.TOOLGATE_CONFIG);
  const fromFile = path === undefined ? {} : readConfigFile(path);
  const substituted = substituteEnvReferences(fromFile, options.env) as Record<string, unknown>;
  if (path !== undefined) resolveFilePaths(substituted, dirname(resolve(path)));
  const merged = deepMerge(substituted, options.overrides ?? {});
  const withEnv = applyEnvironment(merged, options.env);
  const config = validateAgainstSchema(ConfigSchema, withEnv);
  // What the schema cannot express, checked here once so a bad value stops startup with its key named.
  checkRateLimitConfig(config.gateway.rateLimit);
  checkRedisConfig(config.gateway);
  checkBudgetsConfig(config.gateway.governance.budgets);
  checkDevIdentityProviderConfig(config.gateway.auth.devIdentityProvider, config.environment);
  checkGovernanceConfig(config.gateway.governance);
  checkFederationConfig(config.gateway);
  checkWebhooksConfig(config.payments);
  const resolved = resolveSettings(config);
  // A relative dataDir from the file (or the default) belongs to the file's folder, so a command run
  // from elsewhere with --config finds the same stores. One from TOOLGATE_DATA_DIR or the caller's
  // overrides is relative to the working directory, as any path given on a command line is.
  const fromCaller =
    nonEmpty(options.env.TOOLGATE_DATA_DIR) !== undefined || 'dataDir' in (options.overrides ?? {});
  if (path !== undefined && !fromCaller && !isAbsolute(config.dataDir))
    config.dataDir = resolve(dirname(path), config.dataDir);
  return deepFreeze({ ...config, resolved });
}

/**
 * A loaded configuration changed after loading — the ports bound at startup, the demo's wiring — and
 * frozen again. What loadConfig resolved stays as it is, so a change may not touch what it was resolved
 * from (`environment`, `gateway.auth`): such a configuration must be loaded.
 */
export function reconfigure(config: FrozenConfig, change: (draft: Config) => void): FrozenConfig {
  const { resolved, ...settings } = config;
  const draft = structuredClone(settings) as Config;
  change(draft);
  if (
    draft.environment !== config.environment ||
    !isDeepStrictEqual(draft.gateway.auth, config.gateway.auth)
  )
    throw new Error(
      'reconfigure: environment and gateway.auth are resolved at load and stay as they are',
    );
  return deepFreeze({ ...draft, resolved });
}

/**
 * Every relative file path the configuration file names is resolved from the file's folder, like its
 * `dataDir` (docs/decisions.md, D-295): the backends'
 * `openapi.file` and `payments.fees.rates.file`. A path given by a caller (overrides) stays as given.
 * The names of the shipped payment documents (`src/payments/openapi/…`) keep naming the package's own
 * documents unless the file's folder holds a file of that name.
 */
function resolveFilePaths(file: Record<string, unknown>, folder: string): void {
  const fromFolder = (value: unknown): unknown => {
    if (typeof value !== 'string' || value === '' || isAbsolute(value)) return value;
    const candidate = resolve(folder, value);
    if (SHIPPED_DOCUMENTS.has(normalize(value)) && !existsSync(candidate)) return value;
    return candidate;
  };
  const gateway = file.gateway;
  if (isPlainObject(gateway) && Array.isArray(gateway.backends))
    for (const backend of gateway.backends)
      if (isPlainObject(backend) && isPlainObject(backend.openapi) && 'file' in backend.openapi)
        backend.openapi.file = fromFolder(backend.openapi.file);
  const payments = file.payments;
  if (isPlainObject(payments) && isPlainObject(payments.fees)) {
    const rates = payments.fees.rates;
    if (isPlainObject(rates) && 'file' in rates) rates.file = fromFolder(rates.file);
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

function readConfigFile(path: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const reason =
      (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'file not found' : 'unreadable';
    throw new ConfigError(`cannot read configuration file ${path}: ${reason}`);
  }
  let parsed: unknown;
  try {
    parsed = extname(path).toLowerCase() === '.json' ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    // The parser's first line names the problem and its place, then introduces an excerpt with ':';
    // the excerpt is not shown (it may hold secrets), so neither is the colon.
    const first = error instanceof Error ? (error.message.split('\n')[0] ?? '') : '';
    const detail = first.replace(/\s*:\s*$/, '') || 'syntax error';
    throw new ConfigError(
      `configuration file ${path} is not valid ${describeFormat(path)}: ${detail}`,
    );
  }
  if (parsed === null || parsed === undefined) return {};
  if (typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new ConfigError(`configuration file ${path} must hold an object at the top level`);
  }
  return parsed as Record<string, unknown>;
}

function describeFormat(path: string): string {
  return extname(path).toLowerCase() === '.json' ? 'JSON' : 'YAML';
}

export function deepMerge(
  base: Record<string, unknown>,
  over: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const current = out[key];
    out[key] = isPlainObject(current) && isPlainObject(value) ? deepMerge(current, value) : value;
  }
  return out;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
