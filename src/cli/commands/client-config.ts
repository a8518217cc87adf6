// `toolgate client-config [--key KEY] [--sub SUBJECT | --token JWT] [--name NAME]`: print the
// `mcpServers` block an MCP client needs to reach this gateway, for a subscription key that is checked
// against the gateway's store first (a block with a dead key would only fail later, in the client).
import { loadConfig } from '../../config/load.js';
import type { FrozenConfig } from '../../config/schema.js';
import { mcpUrl } from '../../config/gateway-identity.js';
import { resolveIdentitySettings } from '../../gateway/auth/settings.js';
import { SubscriptionStore } from '../../gateway/auth/subscriptions/store.js';
import { maskSecret } from '../../shared/log/mask.js';
import { COMMON_OPTIONS, UsageError, parseCommandArgs } from '../args.js';
import type { Command } from '../context.js';
import { mcpServersBlock, readDemoSubscriptionKey } from '../demo.js';
import { openGatewayStore } from './gateway-store.js';
import { checkSubject, mintDevToken, parseTtl } from './token.js';

const USAGE = `Usage: toolgate client-config [--key KEY] [--sub SUBJECT [--ttl SECONDS] | --token JWT]
                              [--name NAME] [--config FILE] [--json]

Print the MCP client configuration (an "mcpServers" block with the gateway's URL and headers) to paste
into an MCP client. The key must belong to an active subscription of this gateway's environment.

Options:
      --key KEY          subscription key (default: the demo key that "toolgate start" keeps in
                         <dataDir>/demo-secrets.json)
      --sub SUBJECT      add a development user token for SUBJECT (development identity provider)
      --ttl SECONDS      lifetime of that token, 60-86400 (default 3600)
      --token JWT        add this user token instead
      --name NAME        the server's name in the block (default toolgate)
  -c, --config FILE      configuration file (the URL follows the gateway's address or publicUrl)
      --json             the output is JSON in any case; accepted for uniformity
  -h, --help             show this help
`;

const OPTIONS = {
  ...COMMON_OPTIONS,
  key: { type: 'string' },
  sub: { type: 'string' },
  ttl: { type: 'string' },
  token: { type: 'string' },
  name: { type: 'string' },
} as const;

export const clientConfigCommand: Command = {
  name: 'client-config',
  summary: 'Print the mcpServers client configuration for a subscription key (and a user token).',
  usage: USAGE,
  async run(argv, context) {
    const { values } = parseCommandArgs(argv, OPTIONS);
    if (values.help) {
      context.stdout.write(USAGE);
      return 0;
    }
    if (values.sub !== undefined && values.token !== undefined)
      throw new UsageError('give either --sub or --token, not both');
    if (values.sub !== undefined) checkSubject(values.sub);
    if (values.ttl !== undefined && values.sub === undefined)
      throw new UsageError('--ttl goes with --sub');
    const ttl = parseTtl(values.ttl);
    const name = values.name ?? 'toolgate';
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(name))
      throw new UsageError('--name must be 1-64 characters of A-Z, a-z, 0-9, _ and -');
    if (
      values.token !== undefined &&
      !/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(values.token)
    )
      throw new UsageError('--token must be a JWT (three base64url segments separated by dots)');

    const config = loadConfig({ configPath: values.config, env: context.env });
    const key = values.key ?? (await readDemoSubscriptionKey(config.dataDir));
    if (key === undefined) {
      throw new UsageError(
        `no --key given and no demo key in ${config.dataDir}/demo-secrets.json (run "toolgate start" once, or create a key with "toolgate keys create")`,
      );
    }
    await checkKey(config, key);
    const minted =
      values.sub !== undefined ? await mintDevToken(config, { sub: values.sub, ttl }) : undefined;
    const token = minted?.token ?? values.token ?? null;
    const block = mcpServersBlock(
      { mcpUrl: mcpUrl(config), subscriptionKey: key, sampleToken: token },
      name,
    );
    context.stdout.write(`${JSON.stringify(block, null, 2)}\n`);
    // Why this block, on stderr so the block alone can be piped into a file (issue 27, trap 1).
    context.stderr.write(`${blockNote(token, values.sub, ttl, resolveIdentitySettings(config))}\n`);
    return 0;
  },
};

/** One sentence on what the block does and how long it works. */
function blockNote(
  token: string | null,
  sub: string | undefined,
  ttl: number,
  settings: ReturnType<typeof resolveIdentitySettings>,
): string {
  const after =
    'after that the gateway refuses every request of this block, public tools and initialize included';
  if (token !== null && sub !== undefined)
    return `This block carries a development token for "${sub}" that expires in ${ttl} s; ${after}. Run this again then, or leave --sub out: a key-only block lets the client sign you in.`;
  if (token !== null) return `This block carries the token you gave; when it expires, ${after}.`;
  if (settings.devIdp.enabled)
    return `This block has no user token, so it does not expire: public tools work at once, and the first user-scoped tool makes your client sign you in (OAuth at ${settings.devIdp.issuer}); the client renews its token itself and a restart keeps the sign-in. For a client that cannot sign in, add --sub NAME.`;
  if (settings.jwt !== null)
    return `This block has no user token, so it does not expire: public tools work at once, and the first user-scoped tool makes your client sign you in with ${settings.jwt.issuer}.`;
  return 'This block has no user token: this gateway verifies none, so only public tools are served.';
}

/** Refuses a key the gateway would refuse: unknown, not active, or of another environment. */
async function checkKey(config: FrozenConfig, key: string): Promise<void> {
  const { db } = await openGatewayStore(config, { mayCreate: false });
  try {
    const store = new SubscriptionStore(db, config.gateway.auth.subscriptionKeys.pepper);
    const found = await store.findByKey(key);
    const masked = maskSecret(key);
    if (found === null) throw new UsageError(`the key ${masked} is not known to this gateway`);
    const { subscription } = found;
    if (subscription.status !== 'active')
      throw new UsageError(`the key ${masked} belongs to a ${subscription.status} subscription`);
    if (subscription.environment !== config.environment)
      throw new UsageError(
        `the key ${masked} is for ${subscription.environment}, this gateway serves ${config.environment}`,
      );
  } finally {
    await db.close();
  }
}
