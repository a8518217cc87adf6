// `toolgate token --sub alice [--ttl 3600] [--claim k=v]`: mint a user token from the development
// identity provider (the key under dataDir), valid at the gateway configured by the same file.
import { requireDataFolder } from '../store-location.js';
import { loadConfig } from '../../config/load.js';
import type { FrozenConfig } from '../../config/schema.js';
import { createDevIdp } from '../../gateway/auth/dev-idp/idp.js';
import { resolveIdentitySettings } from '../../gateway/auth/settings.js';
import { COMMON_OPTIONS, UsageError, parseCommandArgs } from '../args.js';
import type { Command } from '../context.js';

const USAGE = `Usage: toolgate token --sub SUBJECT [--ttl SECONDS] [--claim NAME=VALUE ...] [--config FILE] [--json]

Mint a signed user token (JWT) from the development identity provider, for trying user-scoped tools.
Works only where the development identity provider is enabled (by default: environment development).

Options:
      --sub SUBJECT       the user id (the token's "sub" claim)   [required]
      --ttl SECONDS       lifetime, 60-86400 (default 3600)
      --claim NAME=VALUE  an extra claim, e.g. --claim email=alice@example.com (repeatable)
  -c, --config FILE       configuration file (issuer and audience follow the gateway's address)
      --json              print {token, subject, issuer, audience, expiresAt}
  -h, --help              show this help
`;

const OPTIONS = {
  ...COMMON_OPTIONS,
  sub: { type: 'string' },
  ttl: { type: 'string' },
  claim: { type: 'string', multiple: true },
} as const;

export const tokenCommand: Command = {
  name: 'token',
  summary: 'Mint a development user token (JWT) for trying user-scoped tools.',
  usage: USAGE,
  async run(argv, context) {
    const { values } = parseCommandArgs(argv, OPTIONS);
    if (values.help) {
      context.stdout.write(USAGE);
      return 0;
    }
    const sub = values.sub;
    if (sub === undefined) throw new UsageError('--sub SUBJECT is required');
    checkSubject(sub);
    const ttl = parseTtl(values.ttl);
    const claims: Record<string, string> = {};
    for (const pair of values.claim ?? []) {
      const at = pair.indexOf('=');
      if (at <= 0) throw new UsageError(`--claim must look like NAME=VALUE (got "${pair}")`);
      claims[pair.slice(0, at)] = pair.slice(at + 1);
    }
    const config = loadConfig({ configPath: values.config, env: context.env });
    const { token, issuer, audience } = await mintDevToken(config, { sub, ttl, claims });
    if (values.json === true) {
      const expiresAt = new Date(Date.now() + ttl * 1000).toISOString();
      context.stdout.write(
        `${JSON.stringify({ token, subject: sub, issuer, audience, expiresAt }, null, 2)}\n`,
      );
    } else {
      context.stdout.write(`${token}\n`);
    }
    return 0;
  },
};

/** `--sub`: 1-255 visible characters. */
export function checkSubject(sub: string): void {
  if (!/^[^\s]{1,255}$/.test(sub))
    throw new UsageError('--sub SUBJECT must be 1-255 visible characters');
}

/** `--ttl`: seconds, 60-86400, default 3600. */
export function parseTtl(value: string | undefined): number {
  const ttl = value === undefined ? 3600 : Number(value);
  if (!Number.isInteger(ttl) || ttl < 60 || ttl > 86400)
    throw new UsageError('--ttl must be an integer between 60 and 86400');
  return ttl;
}

/** Mints a token from the development identity provider, valid at the gateway `config` describes. */
export async function mintDevToken(
  config: FrozenConfig,
  request: { sub: string; ttl: number; claims?: Record<string, string> },
): Promise<{ token: string; issuer: string; audience: string }> {
  const settings = resolveIdentitySettings(config);
  if (!settings.devIdp.enabled) {
    throw new UsageError(
      'the development identity provider is disabled in this configuration (gateway.auth.devIdentityProvider.enabled)',
    );
  }
  // The signing key lives in the data folder; minting from a fresh one elsewhere would make a new key
  // that no running gateway trusts.
  requireDataFolder(config.dataDir);
  const idp = await createDevIdp({ dataDir: config.dataDir });
  const audience = settings.jwt?.audience ?? settings.mcpUrl;
  const issuer = settings.devIdp.issuer;
  const token = await idp.mintToken({
    sub: request.sub,
    ttlSeconds: request.ttl,
    claims: request.claims ?? {},
    audience,
    issuer,
  });
  return { token, issuer, audience };
}
