// The world of the delegation tests: the gateway (with its development identity provider, where the
// portal signs users in) and the admin listener (the portal and its connect pages) on loopback ports, the
// upstream's own authorization server (support/upstream-as.ts, accounts alice and bob), one upstream MCP
// backend `notes` in identity mode delegation, the gateway database shared by both listeners, and the
// gateway-side provider with a clock the tests move. Users drive their own Browser through the flows.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { loadConfig } from '../../../../src/config/load.js';
import type { FrozenConfig } from '../../../../src/config/schema.js';
import { createAdminApp } from '../../../../src/gateway/admin/app.js';
import type { Caller } from '../../../../src/gateway/caller.js';
import { loadCatalogue } from '../../../../src/gateway/catalogue/load.js';
import { createGateway } from '../../../../src/gateway/create-gateway.js';
import { migrateGatewayDatabase } from '../../../../src/gateway/database.js';
import {
  delegationBackends,
  delegationProvider,
  type DelegationProvider,
} from '../../../../src/gateway/federation/delegation/provider.js';
import { connectUrl } from '../../../../src/gateway/federation/delegation/urls.js';
import { openSqlite } from '../../../../src/shared/db/sqlite.js';
import type { Database } from '../../../../src/shared/db/types.js';
import { freePort } from '../../../helpers/free-port.js';
import type { Browser, Page } from './browser.js';
import {
  startUpstreamAuthorizationServer,
  UPSTREAM_CLIENT_ID,
  UPSTREAM_CLIENT_SECRET,
  type UpstreamAuthorizationServer,
} from './upstream-as.js';

export const BACKEND = 'notes';
export const TOKEN_KEY = 'delegation-test-token-key-0123456789abcdef';

export interface DelegationWorld {
  readonly upstream: UpstreamAuthorizationServer;
  readonly db: Database;
  readonly config: FrozenConfig;
  readonly adminUrl: string;
  /** The gateway side's provider (clock: `world.now`). */
  readonly delegation: DelegationProvider;
  now: number;
  /** The link an agent relays: the portal's connect page of `notes`. */
  readonly connectLink: string;
  /** The user opens the connect link, signs in to the portal when asked, then at the upstream. */
  connect(browser: Browser, user: string): Promise<Page>;
  close(): Promise<void>;
}

/** A caller as the gatekeeper builds it: a verified user (or none) on a subscription. */
export function callerFor(subject: string | null, issuer?: string): Caller {
  return {
    requestId: 'req-1',
    clientIp: '127.0.0.1',
    subscription: {
      id: 'sub_1',
      application: 'agent',
      environment: 'development',
      tools: 'all',
      rateLimitPerMinute: null,
    },
    user:
      subject === null
        ? null
        : {
            subject,
            claims: issuer === undefined ? { sub: subject } : { sub: subject, iss: issuer },
            expiresAt: Math.floor(Date.now() / 1000) + 3600,
            tokenHash: 'x',
          },
  };
}

/** What a user does on each page: sign in as themselves at the gateway's and at the upstream's server. */
export function userAnswers(user: string) {
  return (page: Page): Record<string, string> | undefined => {
    if (page.url.pathname.startsWith('/dev-idp/interaction/')) {
      if (page.body.includes('name="sub"')) return { sub: user };
      if (page.body.includes('name="decision"')) return { decision: 'allow' };
    }
    if (page.url.hostname === 'localhost') {
      // The upstream authorization server's development sign-in and consent forms.
      if (page.body.includes('name="login"')) return { login: user, password: 'any' };
      if (page.body.includes('value="consent"')) return {};
    }
    return undefined;
  };
}

export async function startDelegationWorld(
  options: {
    readonly mcpUrl?: string;
    /** Merged into the `notes` backend's configuration (e.g. approve, mcp.headers). */
    readonly backend?: Readonly<Record<string, unknown>>;
  } = {},
): Promise<DelegationWorld> {
  const gatewayPort = await freePort();
  const adminPort = await freePort();
  const adminUrl = `http://127.0.0.1:${adminPort}`;
  const upstream = await startUpstreamAuthorizationServer({
    redirectUris: [`${adminUrl}/portal/federation/callback`],
  });
  const config = loadConfig({
    env: {},
    overrides: {
      environment: 'development',
      dataDir: mkdtempSync(join(tmpdir(), 'toolgate-delegation-')),
      logging: { level: 'silent' },
      admin: { host: '127.0.0.1', port: adminPort },
      gateway: {
        host: '127.0.0.1',
        port: gatewayPort,
        auth: { devIdentityProvider: { enabled: true } },
        federation: { tokenKey: TOKEN_KEY },
        backends: [
          {
            name: BACKEND,
            mcp: { url: options.mcpUrl ?? 'http://127.0.0.1:9/mcp' },
            ...options.backend,
            identity: {
              mode: 'delegation',
              delegation: {
                issuer: upstream.issuer,
                clientId: UPSTREAM_CLIENT_ID,
                clientSecret: UPSTREAM_CLIENT_SECRET,
                scopes: ['openid'],
              },
            },
          },
        ],
      },
    },
  });
  const db = openSqlite({ path: ':memory:' });
  await migrateGatewayDatabase(db);
  const logger = pino({ level: 'silent' });
  // The upstream's tools are not listed by this gateway (the catalogue of upstream tools is another
  // part's): an empty catalogue; the dev IdP and the portal are what these tests need of it.
  const gateway: FastifyInstance = await createGateway({
    config,
    logger,
    stores: { db },
    catalogue: await loadCatalogue([]),
  });
  await gateway.listen({ host: '127.0.0.1', port: gatewayPort });
  const admin = await createAdminApp({ config, logger, db });
  await admin.listen({ host: '127.0.0.1', port: adminPort });
  const connectLink = `${adminUrl}/portal/federation/${BACKEND}/connect`;
  const world: DelegationWorld = {
    upstream,
    db,
    config,
    adminUrl,
    connectLink,
    now: Date.now(),
    delegation: delegationProvider({
      db,
      tokenKey: TOKEN_KEY,
      backends: delegationBackends(config.gateway.backends),
      connectUrl: (backend) => connectUrl(config.admin, backend),
      clock: () => world.now,
    }),
    async connect(browser, user) {
      const first = await browser.browse(connectLink, userAnswers(user));
      if (first.url.pathname !== '/portal/sign-in') return first;
      // Not signed in to the portal: its sign-in page; the OpenID Connect sign-in leads back here after.
      return browser.browse(`${adminUrl}/portal/auth/oidc`, userAnswers(user));
    },
    async close() {
      await admin.close();
      await gateway.close();
      await db.close();
      await upstream.close();
    },
  };
  return world;
}
