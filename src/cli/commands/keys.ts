// `toolgate keys create|list|rotate|suspend|resume|revoke`: manage subscriptions and their keys.
// New keys are printed once; only their hashes are stored. Every change goes through the admin plane's
// provisioning service as the actor `cli:<user>`, so it is decided in one place and audited.
// `list` warns (stderr) about keys the rotation policy says are due soon or expired.
import { loadConfig } from '../../config/load.js';
import type { FrozenConfig } from '../../config/schema.js';
import { PRODUCT_PREFIX } from '../../gateway/gatekeeper/gatekeeper.js';
import { loadOperatorCatalogue } from '../../gateway/catalogue/load.js';
import { openConfiguredUpstreams } from '../../gateway/federation/federation.js';
import { toolPrefixOf } from '../../config/gateway-federation.js';
import {
  ENVIRONMENTS,
  KEY_SLOTS,
  type Environment,
  type KeySlot,
  type KeyRecord,
  type Subscription,
} from '../../gateway/auth/subscriptions/types.js';
import { openAdminServices } from '../../gateway/admin/services.js';
import { keyAge, type KeyPolicy } from '../../gateway/admin/key-policy.js';
import { maskedKey } from '../../gateway/admin/views.js';
import { cliActor } from '../actor.js';
import { COMMON_OPTIONS, UsageError, parseCommandArgs } from '../args.js';
import type { Command } from '../context.js';
import { openGatewayStore } from './gateway-store.js';

const USAGE = `Usage: toolgate keys <action> [options]

Manage subscriptions (an application's access in one environment) and their two keys.

Actions:
  create --app NAME --env development|staging|production [--tools a,b] [--rate-limit N]
         [--bundles a,b] [--lockout-exempt]
                       create a subscription; prints its primary and secondary key ONCE.
                       --tools lists tool names and/or products as product:NAME (gateway.products);
                       without --tools the subscription may use every approved tool.
                       --bundles limits it to these tool bundles' endpoints (gateway.bundles,
                       <mcp path>/<name>): refused at the plain MCP endpoint and at other bundles
  list                 list subscriptions (keys are shown only as their last 4 characters); warns
                       on stderr about keys due for rotation under the key policy (--json: keyAges)
  rotate --id SUB [--slot primary|secondary]
                       replace one key (default: primary); the other keeps working
  suspend --id SUB     stop accepting the subscription's keys (403) until resumed
  resume --id SUB      accept them again
  revoke --id SUB      delete the keys for good (401); cannot be undone
  lockout --id SUB --exempt|--enforce
                       --exempt: accept this subscription's valid keys even from an address locked
                       out by failed key attempts (e.g. a NAT shared with a misbehaving client);
                       --enforce: end that exemption (the default for new subscriptions)

Options:
  -c, --config FILE    configuration file (the gateway database is taken from it)
      --json           machine-readable output
  -h, --help           show this help
`;

const OPTIONS = {
  ...COMMON_OPTIONS,
  app: { type: 'string' },
  env: { type: 'string' },
  tools: { type: 'string' },
  'rate-limit': { type: 'string' },
  bundles: { type: 'string' },
  id: { type: 'string' },
  slot: { type: 'string' },
  'lockout-exempt': { type: 'boolean' },
  exempt: { type: 'boolean' },
  enforce: { type: 'boolean' },
} as const;

export const keysCommand: Command = {
  name: 'keys',
  summary: 'Create, list, rotate, suspend, resume and revoke subscription keys.',
  usage: USAGE,
  async run(argv, context) {
    const { values, positionals } = parseCommandArgs(argv, OPTIONS, true);
    const action = positionals[0];
    if (values.help || action === undefined) {
      // Asked for: the help on stdout, exit 0. No action: a usage error, so the usage on stderr, exit 2.
      if (values.help) {
        context.stdout.write(USAGE);
        return 0;
      }
      context.stderr.write(USAGE);
      return 2;
    }
    if (positionals.length > 1) throw new UsageError(`unexpected argument "${positionals[1]}"`);
    const config = loadConfig({ configPath: values.config, env: context.env });
    const { db, location } = await openGatewayStore(config, { mayCreate: action === 'create' });
    const services = openAdminServices(db, config);
    const store = services.subscriptions;
    const provisioning = services.provisioning;
    const actor = cliActor(context.env);
    const json = values.json === true;
    const fallback = config.gateway.rateLimit.subscriptionDefault;
    const print = (value: Record<string, unknown>) =>
      context.stdout.write(`${JSON.stringify({ ...value, store: location.summary }, null, 2)}\n`);
    try {
      switch (action) {
        case 'create': {
          const tools = values.tools === undefined ? null : splitList(values.tools);
          if (tools !== null) await refuseUnknownTools(tools, config);
          const bundles =
            values.bundles === undefined ? null : splitList(values.bundles, '--bundles');
          const unknownBundles = (bundles ?? []).filter(
            (b) => !Object.hasOwn(config.gateway.bundles, b),
          );
          if (unknownBundles.length > 0)
            throw new UsageError(
              `--bundles names unknown tool bundle(s): ${unknownBundles.join(', ')} (configured: ${Object.keys(config.gateway.bundles).join(', ') || 'none'}; see gateway.bundles)`,
            );
          const issued = await provisioning.create(actor, {
            application: required(values.app, '--app'),
            environment: environmentOf(required(values.env, '--env')),
            tools,
            bundles,
            rateLimitPerMinute:
              values['rate-limit'] === undefined ? null : positiveInteger(values['rate-limit']),
            lockoutExempt: values['lockout-exempt'] === true,
          });
          if (json) {
            print({
              ...describe(issued.subscription),
              primaryKey: issued.primaryKey,
              secondaryKey: issued.secondaryKey,
            });
          } else {
            context.stdout.write(
              `${line(issued.subscription, fallback)}\n` +
                `primary key:   ${issued.primaryKey}\nsecondary key: ${issued.secondaryKey}\n` +
                'Store these keys now: they are not shown again.\n',
            );
          }
          return 0;
        }
        case 'list': {
          const all = await store.list();
          const keys = await store.keys();
          const policy = await services.keyPolicy.get();
          const now = new Date();
          if (json)
            print({
              subscriptions: all.map((s) => ({
                ...describe(s),
                keyAges: keyAges(s, keys, policy, now),
              })),
            });
          else
            context.stdout.write(
              all.length === 0
                ? 'no subscriptions\n'
                : `${all.map((s) => line(s, fallback)).join('\n')}\n`,
            );
          for (const warning of rotationWarnings(all, keys, policy, now))
            context.stderr.write(`warning: ${warning}\n`);
          return 0;
        }
        case 'rotate': {
          const slot = slotOf(values.slot ?? 'primary');
          const { subscription, key } = await provisioning.rotate(
            actor,
            required(values.id, '--id'),
            slot,
          );
          if (json) print({ ...describe(subscription), slot, key });
          else
            context.stdout.write(
              `${line(subscription, fallback)}\nnew ${slot} key: ${key}\nStore it now: it is not shown again.\n`,
            );
          return 0;
        }
        case 'suspend':
        case 'resume':
        case 'revoke': {
          const status =
            action === 'suspend' ? 'suspended' : action === 'resume' ? 'active' : 'revoked';
          const subscription = await provisioning.setStatus(
            actor,
            required(values.id, '--id'),
            status,
          );
          if (json) print(describe(subscription));
          else context.stdout.write(`${line(subscription, fallback)}\n`);
          return 0;
        }
        case 'lockout': {
          if ((values.exempt === true) === (values.enforce === true))
            throw new UsageError('lockout needs exactly one of --exempt or --enforce');
          const subscription = await provisioning.setLockoutExempt(
            actor,
            required(values.id, '--id'),
            values.exempt === true,
          );
          if (json) print(describe(subscription));
          else context.stdout.write(`${line(subscription, fallback)}\n`);
          return 0;
        }
        default:
          throw new UsageError(
            `unknown action "${action}" (expected create, list, rotate, suspend, resume, revoke or lockout)`,
          );
      }
    } finally {
      await db.close();
    }
  },
};

/**
 * A subscription limited to tools that do not exist would be refused every call: every name must be a
 * tool of the configured backends' catalogue (upstream MCP servers' tools included, their lists asked for
 * now) or `product:NAME` of a configured product. A name with the prefix of an upstream that does not answer
 * now cannot be checked, and is taken as given.
 */
async function refuseUnknownTools(names: readonly string[], config: FrozenConfig): Promise<void> {
  const { catalogue, upstreams } = await loadOperatorCatalogue(
    config.gateway.backends,
    openConfiguredUpstreams,
  );
  const silent = new Set(upstreams.filter((u) => u.state !== 'ok').map((u) => u.backend));
  const uncheckable = config.gateway.backends
    .filter((b) => b.mcp !== undefined && silent.has(b.name))
    .map((b) => toolPrefixOf(b));
  const unknown = names.filter((name) =>
    name.startsWith(PRODUCT_PREFIX)
      ? !Object.hasOwn(config.gateway.products, name.slice(PRODUCT_PREFIX.length))
      : !catalogue.byName.has(name) && !uncheckable.some((prefix) => name.startsWith(prefix)),
  );
  if (unknown.length > 0)
    throw new UsageError(
      `--tools names unknown tool(s) or product(s): ${unknown.join(', ')} (see "toolgate tools list" and gateway.products)`,
    );
}

/** Each key's creation, last use and standing under the rotation policy, by slot. */
function keyAges(
  s: Subscription,
  keys: readonly KeyRecord[],
  policy: KeyPolicy,
  now: Date,
): Record<string, unknown> {
  return Object.fromEntries(
    keys
      .filter((k) => k.subscriptionId === s.id)
      .map((k) => [
        k.slot,
        { createdAt: k.createdAt, lastUsedAt: k.lastUsedAt, ...keyAge(k.createdAt, now, policy) },
      ]),
  );
}

/** One line per key of a live subscription that the policy says is due within warnDays, or past due. */
function rotationWarnings(
  all: readonly Subscription[],
  keys: readonly KeyRecord[],
  policy: KeyPolicy,
  now: Date,
): string[] {
  const live = new Map(all.filter((s) => s.status !== 'revoked').map((s) => [s.id, s]));
  const out: string[] = [];
  for (const k of keys) {
    const s = live.get(k.subscriptionId);
    if (s === undefined) continue;
    const age = keyAge(k.createdAt, now, policy);
    if (age.rotationDue === 'ok') continue;
    const enforced = policy.enforce[s.environment] ? ' and the gateway refuses it' : '';
    out.push(
      age.rotationDue === 'expired'
        ? `${s.id} ${k.slot} key ${maskedKey(k.last4)} is ${age.ageDays} days old, past the ${policy.rotationDays}-day rotation policy${enforced}: toolgate keys rotate --id ${s.id} --slot ${k.slot}`
        : `${s.id} ${k.slot} key ${maskedKey(k.last4)} is ${age.ageDays} days old; the ${policy.rotationDays}-day rotation policy wants it rotated within ${policy.rotationDays - age.ageDays} days`,
    );
  }
  return out;
}

function required(value: string | undefined, flag: string): string {
  if (value === undefined || value === '') throw new UsageError(`${flag} is required`);
  return value;
}

function environmentOf(value: string): Environment {
  if (!(ENVIRONMENTS as readonly string[]).includes(value)) {
    throw new UsageError(`--env must be one of ${ENVIRONMENTS.join(', ')} (got "${value}")`);
  }
  return value as Environment;
}

function slotOf(value: string): KeySlot {
  if (!(KEY_SLOTS as readonly string[]).includes(value)) {
    throw new UsageError(`--slot must be primary or secondary (got "${value}")`);
  }
  return value as KeySlot;
}

function splitList(value: string, flag = '--tools'): string[] {
  const items = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (items.length === 0)
    throw new UsageError(
      `${flag} needs at least one ${flag === '--tools' ? 'tool name' : 'bundle name'}`,
    );
  return items;
}

function positiveInteger(value: string): number {
  if (!/^[1-9]\d{0,6}$/.test(value))
    throw new UsageError(`--rate-limit must be a positive integer (got "${value}")`);
  return Number(value);
}

function describe(s: Subscription) {
  return {
    subscriptionId: s.id,
    application: s.application,
    environment: s.environment,
    status: s.status,
    tools: s.tools,
    bundles: s.bundles,
    rateLimitPerMinute: s.rateLimitPerMinute,
    lockoutExempt: s.lockoutExempt,
    keys: Object.fromEntries(
      Object.entries(s.keyHints).map(([slot, last4]) => [slot, `tgk_…${last4}`]),
    ),
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
  };
}

/** The subscription's quota as the gateway applies it: its own, else the configured default. */
function quota(s: Subscription, fallback: { limit: number; windowSeconds: number }): string {
  return s.rateLimitPerMinute === null
    ? `quota=${fallback.limit}/${fallback.windowSeconds}s (default)`
    : `quota=${s.rateLimitPerMinute}/60s`;
}

function line(s: Subscription, fallback: { limit: number; windowSeconds: number }): string {
  const keys = Object.entries(s.keyHints)
    .map(([slot, last4]) => `${slot} tgk_…${last4}`)
    .join(', ');
  const exempt = s.lockoutExempt ? '  lockout-exempt' : '';
  const bundles = s.bundles === null ? '' : `  bundles=${s.bundles.join(',')}`;
  return `${s.id}  ${s.application}  ${s.environment}  ${s.status}  tools=${s.tools?.join(',') ?? 'all'}${bundles}  ${quota(s, fallback)}${exempt}${keys ? `  keys: ${keys}` : ''}`;
}
