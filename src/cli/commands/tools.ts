// `toolgate tools list|approve|revoke`: the tool catalogue and its approval state (stored in the gateway
// database; configuration `approve` is the default a stored decision overrides).
import { userInfo } from 'node:os';
import { loadConfig } from '../../config/load.js';
import type { FrozenConfig } from '../../config/schema.js';
import { configApprovals } from '../../gateway/catalogue/directory.js';
import { loadCatalogue } from '../../gateway/catalogue/load.js';
import type { Catalogue } from '../../gateway/catalogue/types.js';
import { ApprovalRepository } from '../../gateway/storage/approvals.js';
import { COMMON_OPTIONS, UsageError, parseCommandArgs } from '../args.js';
import type { StoreLocation } from '../store-location.js';
import { openGatewayStore } from './gateway-store.js';
import type { CliContext, Command } from '../context.js';

const USAGE = `Usage: toolgate tools list [--json]
       toolgate tools approve <tool>... [--json]
       toolgate tools revoke <tool>... [--json]

Shows the tools the gateway builds from its backends' OpenAPI documents, with their security class and
approval state, and approves or revokes tools. Only approved tools are listed to MCP clients and callable.
A stored decision (approve/revoke) overrides the backend's "approve" setting in the configuration; running
gateways pick it up within gateway.mcp.approvalRefreshMs.

Options:
  -c, --config FILE  configuration file (YAML or JSON); default: $TOOLGATE_CONFIG, else built-in defaults
      --json         machine-readable output
  -h, --help         show this help
`;

interface Row {
  readonly name: string;
  readonly backend: string;
  readonly securityClass: string;
  readonly approved: boolean;
  readonly source: 'stored' | 'config';
  readonly method: string;
  readonly path: string;
}

export const toolsCommand: Command = {
  name: 'tools',
  summary: 'List the tool catalogue; approve or revoke tools.',
  usage: USAGE,
  async run(argv, context) {
    const { values, positionals } = parseCommandArgs(argv, COMMON_OPTIONS, true);
    if (values.help) {
      context.stdout.write(USAGE);
      return 0;
    }
    const [action, ...names] = positionals;
    if (action !== 'list' && action !== 'approve' && action !== 'revoke')
      throw new UsageError('expected "list", "approve" or "revoke" (see --help)');
    if (action === 'list' && names.length > 0) throw new UsageError('"list" takes no tool names');
    if (action !== 'list' && names.length === 0)
      throw new UsageError(`"${action}" needs at least one tool name`);
    const config = loadConfig({ configPath: values.config, env: context.env });
    const catalogue = await loadCatalogue(config.gateway.backends);
    const { db, location } = await openGatewayStore(config, { mayCreate: action !== 'list' });
    try {
      const repo = new ApprovalRepository(db);
      if (action !== 'list') {
        const unknown = names.filter((n) => !catalogue.byName.has(n));
        if (unknown.length > 0) throw new UsageError(`unknown tool(s): ${unknown.join(', ')}`);
        const by = `cli:${safeUser()}`;
        for (const name of names)
          await repo.set(name, action === 'approve' ? 'approved' : 'revoked', by);
      }
      const rows = await table(config, catalogue, repo);
      const shown = action === 'list' ? rows : rows.filter((r) => names.includes(r.name));
      print(context, shown, values.json === true, location);
      return 0;
    } finally {
      await db.close();
    }
  },
};

async function table(
  config: FrozenConfig,
  catalogue: Catalogue,
  repo: ApprovalRepository,
): Promise<Row[]> {
  const fromConfig = configApprovals(catalogue, config.gateway.backends);
  const stored = await repo.load();
  return catalogue.tools.map((t) => {
    const state = stored.get(t.name);
    return {
      name: t.name,
      backend: t.backend,
      securityClass: t.securityClass,
      approved: state === undefined ? fromConfig.has(t.name) : state === 'approved',
      source: state === undefined ? 'config' : 'stored',
      method: t.operation.method,
      path: t.operation.pathTemplate,
    };
  });
}

function print(
  context: CliContext,
  rows: readonly Row[],
  json: boolean,
  location: StoreLocation,
): void {
  if (json) {
    context.stdout.write(`${JSON.stringify({ tools: rows, store: location.summary })}\n`);
    return;
  }
  const header = ['TOOL', 'BACKEND', 'CLASS', 'APPROVED', 'OPERATION'];
  const lines = rows.map((r) => [
    r.name,
    r.backend,
    r.securityClass,
    `${r.approved ? 'yes' : 'no'} (${r.source})`,
    `${r.method} ${r.path}`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] ?? '').length)));
  for (const line of [header, ...lines])
    context.stdout.write(
      `${line
        .map((cell, i) => cell.padEnd(widths[i] ?? 0))
        .join('  ')
        .trimEnd()}\n`,
    );
}

function safeUser(): string {
  try {
    return userInfo().username || 'unknown';
  } catch {
    return 'unknown';
  }
}
