// The gateway's assertion signer as configured: the key from `gateway.auth.assertionKey`, or one kept in
// the data folder (key-file.ts).
import { join } from 'node:path';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import type { FrozenConfig } from '../../../config/schema.js';
import { readOrCreateJwkFile } from '../key-file.js';
import { createAssertionSigner, type AssertionSigner } from './sign.js';

/** The file in the data folder holding the signing key when `gateway.auth.assertionKey` is not set. */
export const ASSERTION_KEY_FILE = 'gateway-assertion-key.json';

/**
 * The gateway's assertion signer, when a backend uses assertion forwarding: the configured key
 * (`gateway.auth.assertionKey`), else one generated on first start and kept in the data folder, so that
 * backends holding its JWKS keep verifying across restarts.
 */
export async function loadAssertionSigner(
  config: FrozenConfig,
): Promise<AssertionSigner | undefined> {
  if (!config.gateway.backends.some((b) => b.identity.mode === 'assertion')) return undefined;
  const configured = config.gateway.auth.assertionKey;
  if (configured !== undefined)
    return createAssertionSigner({ privateJwk: JSON.parse(configured) as JWK });
  const { jwk } = await readOrCreateJwkFile(join(config.dataDir, ASSERTION_KEY_FILE), async () =>
    exportJWK((await generateKeyPair('ES256', { extractable: true })).privateKey),
  );
  return createAssertionSigner({ privateJwk: jwk });
}
