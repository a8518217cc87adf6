// The demo setup of `toolgate start`: when the configuration leaves the trust between the two services
// unset (development, default backends), generate the shared secrets once into <dataDir>/demo-secrets.json
// (mode 0600), wire both services with them, provision a demo subscription and mint a sample user token,
// so a newcomer can paste one `mcpServers` block into an MCP client and go.
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { isDeepStrictEqual } from 'node:util';
import { join } from 'node:path';
import { loadConfig, type Environment } from '../config/load.js';
import type { FrozenConfig } from '../config/schema.js';
import { paymentServiceBackends, DEFAULT_BACKENDS } from '../config/gateway-mcp.js';
import { SubscriptionStore } from '../gateway/auth/subscriptions/store.js';
import { createDevIdp } from '../gateway/auth/dev-idp/idp.js';
import { resolveIdentitySettings } from '../gateway/auth/settings.js';
import { openGatewayStore } from './commands/gateway-store.js';

const SECRETS_FILE = 'demo-secrets.json';
const DEMO_APPLICATION = 'demo-agent';
const DEMO_USER = 'alice';

interface DemoSecrets {
  identitySecret: string;
  bankLookupKey: string;
  subscriptionKey?: string;
}

export interface DemoAccess {
  readonly mcpUrl: string;
  readonly subscriptionKey: string;
  readonly sampleUser: string;
  readonly sampleToken: string | null;
}

/** True when `start` should apply the demo wiring to this configuration. */
export function isDemoConfiguration(config: FrozenConfig): boolean {
  return (
    config.environment === 'development' &&
    config.payments.identity.sharedSecret === undefined &&
    isDeepStrictEqual(JSON.parse(JSON.stringify(config.gateway.backends)), DEFAULT_BACKENDS)
  );
}

/** Reloads the configuration with the demo secrets wired into both services. */
export async function withDemoWiring(
  config: FrozenConfig,
  load: { configPath?: string | undefined; env: Environment },
): Promise<FrozenConfig> {
  const secrets = await readSecrets(config.dataDir);
  const host = config.payments.host === '0.0.0.0' ? '127.0.0.1' : config.payments.host;
  const origin = `http://${host}:${config.payments.port}`;
  return loadConfig({
    ...load,
    overrides: {
      payments: {
        identity: { sharedSecret: secrets.identitySecret },
        bankLookup: { apiKeys: [secrets.bankLookupKey] },
      },
      gateway: {
        backends: paymentServiceBackends(
          origin,
          { 'api-key': secrets.bankLookupKey },
          {
            mode: 'headers',
            sharedSecret: secrets.identitySecret,
            claims: { email: 'X-User-Email' },
            assertionTtlSeconds: 60,
          },
        ),
      },
    },
  });
}

/** The demo subscription (created once, its key kept in the secrets file) and a sample user token. */
export async function demoAccess(config: FrozenConfig): Promise<DemoAccess> {
  const secrets = await readSecrets(config.dataDir);
  const db = await openGatewayStore(config);
  let key = secrets.subscriptionKey;
  try {
    const store = new SubscriptionStore(db, config.gateway.auth.subscriptionKeys.pepper);
    const found = key === undefined ? null : await store.findByKey(key);
    if (key === undefined || found === null || found.subscription.status !== 'active') {
      key = (await store.create({ application: DEMO_APPLICATION, environment: 'development' }))
        .primaryKey;
      await writeSecrets(config.dataDir, { ...secrets, subscriptionKey: key });
    }
  } finally {
    await db.close();
  }
  const settings = resolveIdentitySettings(config);
  let sampleToken: string | null = null;
  if (settings.devIdp.enabled && settings.jwt !== null) {
    const idp = await createDevIdp({ dataDir: config.dataDir });
    sampleToken = await idp.mintToken({
      sub: DEMO_USER,
      claims: { email: `${DEMO_USER}@example.com` },
      audience: settings.jwt.audience,
      issuer: settings.devIdp.issuer,
    });
  }
  return { mcpUrl: settings.mcpUrl, subscriptionKey: key, sampleUser: DEMO_USER, sampleToken };
}

/** The client configuration block (`mcpServers`) MCP clients accept. */
export function mcpServersBlock(
  access: Pick<DemoAccess, 'mcpUrl' | 'subscriptionKey' | 'sampleToken'>,
  serverName = 'toolgate',
): Record<string, unknown> {
  const headers: Record<string, string> = { 'Ocp-Apim-Subscription-Key': access.subscriptionKey };
  if (access.sampleToken !== null) headers.Authorization = `Bearer ${access.sampleToken}`;
  return { mcpServers: { [serverName]: { url: access.mcpUrl, headers } } };
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
