// The demo setup of `toolgate start`: when the configuration leaves the trust between the two services
// unset (development, default backends), generate the shared secrets once into <dataDir>/demo-secrets.json
// (mode 0600), wire both services with them, provision a demo subscription and mint a sample user token,
// so a newcomer can paste one `mcpServers` block into an MCP client and go.
import { randomBytes } from 'node:crypto';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, normalize } from 'node:path';
import { reconfigure } from '../config/load.js';
import type { FrozenConfig } from '../config/schema.js';
import {
  accountsDocumentFile,
  DEFAULT_PAYMENTS_PORT,
  paymentOrderDocumentFile,
  paymentServiceBackends,
} from '../config/gateway-mcp.js';
import { SubscriptionStore } from '../gateway/auth/subscriptions/store.js';
import { createDevIdp } from '../gateway/auth/dev-idp/idp.js';
import { resolveIdentitySettings } from '../gateway/auth/settings.js';
import { openGatewayStore } from './commands/gateway-store.js';
import { BootstrapTokens } from '../gateway/admin/bootstrap-token.js';
import { AuditLog } from '../gateway/admin/audit-log.js';
import { KeyProvisioning } from '../gateway/admin/provisioning.js';
import { SYSTEM_ACTOR } from '../gateway/admin/actor.js';
import { addDemoPolicies } from './demo-policies.js';
import { packageRoot } from '../shared/package-root.js';

const SECRETS_FILE = 'demo-secrets.json';

/** The name the demo's sample rates carry in quotes (`customFields.feeQuote.exchange.source`). */
export const SAMPLE_RATES_SOURCE = 'sample rates (demo data, not market rates)';
/**
 * Round sample mid rates of the main pairs against the euro (the reverse directions are derived). No
 * `asOf`: they are standing sample values, not a fixing, so they never go stale in a long-running demo.
 */
const SAMPLE_RATES: Record<string, { mid: number; marginBasisPoints: number }> = {
  'EUR/USD': { mid: 1.16, marginBasisPoints: 25 },
  'EUR/GBP': { mid: 0.88, marginBasisPoints: 25 },
  'EUR/CHF': { mid: 0.93, marginBasisPoints: 25 },
  'EUR/JPY': { mid: 180, marginBasisPoints: 40 },
  'EUR/CAD': { mid: 1.62, marginBasisPoints: 40 },
  'EUR/SEK': { mid: 11, marginBasisPoints: 40 },
  'EUR/PLN': { mid: 4.25, marginBasisPoints: 40 },
};
const DEMO_APPLICATION = 'demo-agent';
const DEMO_USER = 'alice';

interface DemoSecrets {
  identitySecret: string;
  bankLookupKey: string;
  subscriptionKey?: string;
  /** The bootstrap admin token's plaintext (the gateway database keeps only its hash). */
  adminToken?: string;
  /** The sample user token the pasted block carries, reused across starts (see demoAccess). */
  sampleToken?: string;
}

/**
 * How long the demo's sample user token lives, and how much of that must remain for `start` to print the
 * kept one again rather than a new one (docs/decisions.md, D-293). 30 days: the pasted block works
 * across days and restarts; in its last week a start prints a fresh one while the old still works.
 */
export const DEMO_TOKEN_TTL_SECONDS = 30 * 86_400;
const DEMO_TOKEN_RENEW_BEFORE_SECONDS = 7 * 86_400;

export interface DemoAccess {
  readonly mcpUrl: string;
  readonly subscriptionKey: string;
  readonly sampleUser: string;
  readonly sampleToken: string | null;
  /** When the sample token expires (ISO 8601), null without one. */
  readonly sampleTokenExpiresAt: string | null;
}

/** Whether `start` wires the demo, and in one line why not when it does not. */
export type DemoPlan =
  | { readonly wire: true; readonly access: true }
  | { readonly wire: false; readonly access: boolean; readonly reason: string };

const SHIPPED_DOCUMENTS = new Set([paymentOrderDocumentFile, accountsDocumentFile]);

/**
 * The shipped document a backend's OpenAPI file is, by its package-relative name: as written, or as the
 * absolute path a configuration file in the package's folder resolves it to (config/load.ts).
 */
function shippedDocument(backend: FrozenConfig['gateway']['backends'][number]): string | undefined {
  if (backend.openapi === undefined || !('file' in backend.openapi)) return undefined;
  const file = normalize(backend.openapi.file);
  if (SHIPPED_DOCUMENTS.has(file)) return file;
  return [...SHIPPED_DOCUMENTS].find((name) => file === join(packageRoot(), name));
}

/** The configured backends that are the shipped payment service (recognised by their OpenAPI file). */
function isShippedPaymentBackend(backend: FrozenConfig['gateway']['backends'][number]): boolean {
  return shippedDocument(backend) !== undefined;
}

/**
 * The demo needs the development environment (for the key and token) and, to wire the two services
 * together, trust between them that the operator has not set up and at least one shipped payment
 * backend among `gateway.backends` (other backends are left exactly as configured).
 */
export function planDemo(config: FrozenConfig): DemoPlan {
  if (config.environment !== 'development')
    return {
      wire: false,
      access: false,
      reason: `environment is ${config.environment} (the demo key and token exist only in development)`,
    };
  if (config.payments.identity.sharedSecret !== undefined)
    return {
      wire: false,
      access: true,
      reason:
        'payments.identity.sharedSecret is configured, so the trust between the services is yours',
    };
  if (!config.gateway.backends.some(isShippedPaymentBackend))
    return {
      wire: false,
      access: true,
      reason: 'gateway.backends holds none of the shipped payment documents',
    };
  return { wire: true, access: true };
}

/**
 * The configuration with the demo secrets wired into both services: the payment service trusts the
 * generated identity secret and bank-directory key; every shipped payment backend sends them and points at
 * the payment service's actual address. Backends of other services are not touched. The demo rules and
 * sample rates (demo-policies.ts) apply when the configuration has none of its own.
 */
export async function withDemoWiring(config: FrozenConfig): Promise<FrozenConfig> {
  const secrets = await readSecrets(config.dataDir);
  const host = config.payments.host === '0.0.0.0' ? '127.0.0.1' : config.payments.host;
  const origin = `http://${host}:${config.payments.port}`;
  const shipped = new Map(
    paymentServiceBackends(origin, { 'api-key': secrets.bankLookupKey }).map((b) => [
      normalize(b.openapi !== undefined && 'file' in b.openapi ? b.openapi.file : ''),
      b,
    ]),
  );
  return reconfigure(config, (draft) => {
    draft.payments.identity.sharedSecret = secrets.identitySecret;
    draft.payments.bankLookup.apiKeys = [secrets.bankLookupKey];
    // Consent round trips (requestState) are signed with a key every replica shares; the demo's comes
    // from its identity secret (HKDF with its own label, so the two keys are independent).
    if (
      draft.gateway.mcp.requestStateSecret === undefined &&
      draft.gateway.auth.subscriptionKeys.pepper === undefined
    )
      draft.gateway.mcp.requestStateSecret = secrets.identitySecret;
    // Without rates of its own, the demo quotes and checks funds across currencies with sample rates,
    // named as such in every quote (docs/decisions.md, D-291).
    const rates = draft.payments.fees.rates;
    if (Object.keys(rates.pairs).length === 0 && rates.file === undefined) {
      rates.source = SAMPLE_RATES_SOURCE;
      rates.pairs = structuredClone(SAMPLE_RATES);
    }
    addDemoPolicies(draft);
    draft.gateway.backends = draft.gateway.backends.map((backend) => {
      const name = shippedDocument(backend);
      if (name === undefined) return backend;
      const wired = shipped.get(name);
      if (wired === undefined) return backend;
      const identity =
        backend.identity.mode === 'headers' && backend.identity.sharedSecret === undefined
          ? {
              ...backend.identity,
              sharedSecret: secrets.identitySecret,
              claims: { email: 'X-User-Email', ...backend.identity.claims },
            }
          : backend.identity;
      return {
        ...backend,
        baseUrl:
          backend.baseUrl !== undefined && pointsAtPayments(backend.baseUrl, config)
            ? wired.baseUrl
            : backend.baseUrl,
        injectHeaders: { ...wired.injectHeaders, ...backend.injectHeaders },
        identity,
      };
    });
  });
}

/** True when the backend's origin is the configured payment service (default 127.0.0.1:8081). */
function pointsAtPayments(baseUrl: string, config: FrozenConfig): boolean {
  const url = new URL(baseUrl);
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  const loopback = ['127.0.0.1', 'localhost', '[::1]'];
  const sameHost =
    url.hostname === config.payments.host ||
    (loopback.includes(url.hostname) &&
      (loopback.includes(config.payments.host) || config.payments.host === '0.0.0.0'));
  return sameHost && (port === DEFAULT_PAYMENTS_PORT || port === config.payments.port);
}

/** The demo subscription (created once, its key kept in the secrets file) and a sample user token. */
export async function demoAccess(
  config: FrozenConfig,
  now: () => number = Date.now,
): Promise<DemoAccess> {
  const secrets = await readSecrets(config.dataDir);
  // The services have opened their stores by now, so the data folder exists.
  const { db } = await openGatewayStore(config, { mayCreate: true });
  let key = secrets.subscriptionKey;
  try {
    const store = new SubscriptionStore(db, config.gateway.auth.subscriptionKeys.pepper);
    const found = key === undefined ? null : await store.findByKey(key);
    if (key === undefined || found === null || found.subscription.status !== 'active') {
      // Through KeyProvisioning, the one place subscriptions are made: the demo's is audited like any.
      const provisioning = new KeyProvisioning(db, store, new AuditLog(db));
      key = (
        await provisioning.create(SYSTEM_ACTOR, {
          application: DEMO_APPLICATION,
          environment: 'development',
        })
      ).primaryKey;
      await writeSecrets(config.dataDir, { ...secrets, subscriptionKey: key });
    }
  } finally {
    await db.close();
  }
  const settings = resolveIdentitySettings(config);
  if (!settings.devIdp.enabled || settings.jwt === null)
    return {
      mcpUrl: settings.mcpUrl,
      subscriptionKey: key,
      sampleUser: DEMO_USER,
      sampleToken: null,
      sampleTokenExpiresAt: null,
    };
  const { token, expiresAt } = await demoUserToken(
    config,
    settings.jwt,
    settings.devIdp.issuer,
    now,
  );
  return {
    mcpUrl: settings.mcpUrl,
    subscriptionKey: key,
    sampleUser: DEMO_USER,
    sampleToken: token,
    sampleTokenExpiresAt: new Date(expiresAt * 1000).toISOString(),
  };
}

/**
 * The sample user token the printed block carries: the one kept in the demo secrets while it still
 * verifies against the development key, issuer and audience and has a week left; otherwise a new one
 * (30 days, or the configured `maxTokenLifetimeSeconds` when that is shorter), kept for the next start.
 * So the block a newcomer pasted keeps working across restarts and days, and is revoked with the data
 * folder (its signing key lives there).
 */
async function demoUserToken(
  config: FrozenConfig,
  jwt: NonNullable<ReturnType<typeof resolveIdentitySettings>['jwt']>,
  issuer: string,
  now: () => number,
): Promise<{ token: string; expiresAt: number }> {
  const idp = await createDevIdp({ dataDir: config.dataDir, clock: now });
  const secrets = await readSecrets(config.dataDir);
  if (secrets.sampleToken !== undefined) {
    try {
      const { payload } = await jwtVerify(secrets.sampleToken, createLocalJWKSet(idp.jwks()), {
        issuer,
        audience: jwt.audience,
        subject: DEMO_USER,
        currentDate: new Date(now()),
      });
      const left = (payload.exp ?? 0) - Math.floor(now() / 1000);
      const bound = jwt.maxTokenLifetimeSeconds;
      const lifetime = (payload.exp ?? 0) - (payload.iat ?? 0);
      if (
        left > DEMO_TOKEN_RENEW_BEFORE_SECONDS &&
        (bound === undefined || bound === 0 || lifetime <= bound)
      )
        return { token: secrets.sampleToken, expiresAt: payload.exp ?? 0 };
    } catch {
      // Another key, issuer or audience (the data folder or the address changed), or expired: a new one.
    }
  }
  const bound = jwt.maxTokenLifetimeSeconds;
  const ttl =
    bound === undefined || bound === 0
      ? DEMO_TOKEN_TTL_SECONDS
      : Math.min(bound, DEMO_TOKEN_TTL_SECONDS);
  const token = await idp.mintToken({
    sub: DEMO_USER,
    ttlSeconds: ttl,
    claims: { email: `${DEMO_USER}@example.com` },
    audience: jwt.audience,
    issuer,
  });
  await writeSecrets(config.dataDir, {
    ...(await readSecrets(config.dataDir)),
    sampleToken: token,
  });
  return { token, expiresAt: Math.floor(now() / 1000) + ttl };
}

/** How the admin plane's first sign-in works in this configuration, for the startup summary. */
export type AdminTokenNotice =
  | { readonly kind: 'demo'; readonly token: string }
  | { readonly kind: 'configured' }
  | { readonly kind: 'stored' }
  | { readonly kind: 'none' };

/**
 * The bootstrap admin token. Configured (admin.bootstrapToken): nothing to show. In development: the
 * token kept in the demo secrets as `adminToken`, generated (and its hash stored) on first start or when
 * the kept one no longer matches (rotated elsewhere). Elsewhere none is generated: `toolgate admin-token
 * rotate` makes one and shows it once.
 */
export async function demoAdminToken(config: FrozenConfig): Promise<AdminTokenNotice> {
  if (config.admin.bootstrapToken !== undefined) return { kind: 'configured' };
  const { db } = await openGatewayStore(config, { mayCreate: true });
  try {
    const tokens = new BootstrapTokens(db, undefined);
    if (config.environment !== 'development')
      return { kind: (await tokens.exists()) ? 'stored' : 'none' };
    const secrets = await readSecrets(config.dataDir);
    if (secrets.adminToken !== undefined && (await tokens.verify(secrets.adminToken)))
      return { kind: 'demo', token: secrets.adminToken };
    const { token, createdAt } = await tokens.rotate();
    await new AuditLog(db).append({
      actor: SYSTEM_ACTOR,
      action: 'admin-token.rotate',
      target: { type: 'admin-token', id: 'bootstrap' },
      after: { token: `…${token.slice(-4)}`, createdAt, reason: 'generated for the demo setup' },
    });
    await writeSecrets(config.dataDir, { ...secrets, adminToken: token });
    return { kind: 'demo', token };
  } finally {
    await db.close();
  }
}

/** Keeps a rotated bootstrap admin token with the demo secrets (development). */
export async function keepDemoAdminToken(dataDir: string, token: string): Promise<void> {
  const secrets = await readSecrets(dataDir);
  await writeSecrets(dataDir, { ...secrets, adminToken: token });
}

/** The client configuration block (`mcpServers`) MCP clients accept. */
export function mcpServersBlock(
  access: Pick<DemoAccess, 'mcpUrl' | 'subscriptionKey' | 'sampleToken'>,
  serverName = 'toolgate',
): Record<string, unknown> {
  const headers: Record<string, string> = { 'Ocp-Apim-Subscription-Key': access.subscriptionKey };
  if (access.sampleToken !== null) headers.Authorization = `Bearer ${access.sampleToken}`;
  return { mcpServers: { [serverName]: { type: 'http', url: access.mcpUrl, headers } } };
}

/** The demo subscription key `toolgate start` keeps in <dataDir>/demo-secrets.json, if there is one. */
export async function readDemoSubscriptionKey(dataDir: string): Promise<string | undefined> {
  try {
    const secrets = JSON.parse(await readFile(join(dataDir, SECRETS_FILE), 'utf8')) as DemoSecrets;
    return typeof secrets.subscriptionKey === 'string' ? secrets.subscriptionKey : undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

async function readSecrets(dataDir: string): Promise<DemoSecrets> {
  const file = join(dataDir, SECRETS_FILE);
  try {
    return JSON.parse(await readFile(file, 'utf8')) as DemoSecrets;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const fresh: DemoSecrets = {
    identitySecret: randomBytes(24).toString('base64url'),
    bankLookupKey: randomBytes(24).toString('base64url'),
  };
  await writeSecrets(dataDir, fresh);
  return fresh;
}

async function writeSecrets(dataDir: string, secrets: DemoSecrets): Promise<void> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const file = join(dataDir, SECRETS_FILE);
  await writeFile(file, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600 });
  await chmod(file, 0o600);
}
