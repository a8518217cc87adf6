// Where the other parts of the admin plane plug in without editing app.ts: an extension contributes route
// modules (under /admin/api/v1, documented in the OpenAPI document) and/or the portal (mounted at
// /portal/). The listening admin service builds every installed extension with the shared context.
import type { FastifyPluginAsync } from 'fastify';
import type { FrozenConfig } from '../../config/schema.js';
import type { Database } from '../../shared/db/types.js';
import type { Logger } from '../../shared/log/logger.js';
import type { JwtVerifier } from '../auth/jwt/verify.js';
import type { AdminAuthenticator } from './authenticate.js';
import type { AdminRouteModule } from './http/module.js';
import type { AdminServices } from './services.js';
import { LIVE_ADMIN_EXTENSION } from './live-extension.js';
import { portalExtension } from '../portal/extension.js';

export interface AdminPluginContext {
  readonly config: FrozenConfig;
  readonly logger: Logger;
  readonly db: Database;
  readonly services: AdminServices;
  /** Bearer authentication of the API (the portal reuses it for its sign-in with the bootstrap token). */
  readonly authenticator: AdminAuthenticator;
  /** The user-token verifier in force (null: no identity provider configured). */
  readonly verifier: () => JwtVerifier | null;
}

export interface AdminExtension {
  readonly name: string;
  /**
   * Replaces how user tokens are verified (e.g. identity-provider settings stored and changed at run time):
   * returns the verifier in force at each call. The first extension that provides one wins; without one,
   * the gateway's configured verifier is used.
   */
  userTokenVerifier?(
    base: Pick<AdminPluginContext, 'config' | 'logger' | 'db'>,
  ): (() => JwtVerifier | null) | Promise<() => JwtVerifier | null>;
  routes?(
    context: AdminPluginContext,
  ): readonly AdminRouteModule[] | Promise<readonly AdminRouteModule[]>;
  /** The portal, registered with prefix `/portal`. */
  portal?(context: AdminPluginContext): FastifyPluginAsync | Promise<FastifyPluginAsync>;
  /** Called when the admin app closes (before the database closes). */
  close?(): void | Promise<void>;
}

/**
 * The extensions `toolgate start` / `toolgate admin` run. Add one line per extension (tool catalogue and
 * identity-provider admin, usage, the portal).
 */
export const INSTALLED_ADMIN_EXTENSIONS: readonly AdminExtension[] = [
  LIVE_ADMIN_EXTENSION,
  portalExtension,
];
