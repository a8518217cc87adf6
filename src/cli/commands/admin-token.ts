// `toolgate admin-token rotate`: replaces the bootstrap admin token (its hash in the gateway database),
// shows the new one once, keeps it with the demo secrets in development, and records the rotation in
// the audit log. Running admin listeners accept the new token within seconds; the old one stops working.
import { loadConfig } from '../../config/load.js';
import { AuditLog } from '../../gateway/admin/audit-log.js';
import { BootstrapTokens } from '../../gateway/admin/bootstrap-token.js';
import { COMMON_OPTIONS, UsageError, parseCommandArgs } from '../args.js';
import { cliActor } from '../actor.js';
import type { Command } from '../context.js';
import { keepDemoAdminToken } from '../demo.js';
import { openGatewayStore } from './gateway-store.js';

const USAGE = `Usage: toolgate admin-token rotate [options]

Replace the bootstrap admin token of the admin plane (API and portal). The new token is printed once;
in development it is also kept in <dataDir>/demo-secrets.json as adminToken. The previous token stops
working within seconds on every admin listener. A token set in the configuration (admin.bootstrapToken
or TOOLGATE_ADMIN_TOKEN) is changed there instead.

Options:
  -c, --config FILE    configuration file (the gateway database is taken from it)
      --json           machine-readable output
  -h, --help           show this help
`;

export const adminTokenCommand: Command = {
  name: 'admin-token',
  summary: 'Rotate the bootstrap admin token of the admin plane.',
  usage: USAGE,
  async run(argv, context) {
    const { values, positionals } = parseCommandArgs(argv, COMMON_OPTIONS, true);
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
    if (action !== 'rotate' || positionals.length > 1)
      throw new UsageError(`unknown action "${positionals.join(' ')}" (expected rotate)`);
    const config = loadConfig({ configPath: values.config, env: context.env });
    if (config.admin.bootstrapToken !== undefined)
      throw new Error(
        'the bootstrap admin token is set in the configuration (admin.bootstrapToken or TOOLGATE_ADMIN_TOKEN); change it there',
      );
    const { db, location } = await openGatewayStore(config, { mayCreate: true });
    try {
      const { token, createdAt } = await new BootstrapTokens(db, undefined).rotate();
      await new AuditLog(db).append({
        actor: cliActor(context.env),
        action: 'admin-token.rotate',
        target: { type: 'admin-token', id: 'bootstrap' },
        after: { token: `…${token.slice(-4)}`, createdAt },
      });
      const kept = config.environment === 'development';
      if (kept) await keepDemoAdminToken(config.dataDir, token);
      if (values.json === true)
        context.stdout.write(
          `${JSON.stringify({ adminToken: token, createdAt, keptInDemoSecrets: kept, store: location.summary }, null, 2)}\n`,
        );
      else
        context.stdout.write(
          `new bootstrap admin token: ${token}\n` +
            (kept
              ? 'Kept in the demo secrets (demo-secrets.json) as adminToken.\n'
              : 'Store it now: it is not shown again.\n'),
        );
      return 0;
    } finally {
      await db.close();
    }
  },
};
