// Chooses the one identity mechanism the configuration trusts. New mechanisms (e.g. `assertion`, a
// gateway-signed JWT verified with the gateway's JWKS) plug in here.
import type { FrozenConfig } from '../../config/schema.js';
import { createSharedSecretResolver } from './shared-secret.js';
import { createAssertionResolver } from './assertion.js';
import type { IdentityResolver } from './types.js';

export function createIdentityResolver(config: FrozenConfig): IdentityResolver {
  const identity = config.payments.identity;
  switch (identity.mechanism) {
    case 'shared-secret': {
      const secret = identity.sharedSecret;
      const secrets =
        secret === undefined ? [] : typeof secret === 'string' ? [secret] : [...secret];
      return createSharedSecretResolver(secrets);
    }
    case 'assertion': {
      const settings = identity.assertion;
      if (settings.jwksUrl === undefined || settings.issuer === undefined) {
        throw new Error(
          'payments.identity.assertion needs issuer and jwksUrl when mechanism is "assertion"',
        );
      }
      return createAssertionResolver({
        issuer: settings.issuer,
        audience: settings.audience ?? paymentsBaseUrl(config),
        jwksUrl: settings.jwksUrl,
        maxAgeSeconds: settings.maxAgeSeconds,
      });
    }
  }
}

function paymentsBaseUrl(config: FrozenConfig): string {
  const { publicUrl, host, port } = config.payments;
  return (publicUrl ?? `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`).replace(
    /\/+$/,
    '',
  );
}
