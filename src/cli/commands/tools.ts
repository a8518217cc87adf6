// `toolgate tools list|approve|revoke|reload`: the tool catalogue and its approval state (stored in the
// gateway database; configuration `approve` is the default a stored decision overrides), and the request
// that every gateway replica rebuild its catalogue from the backends' current OpenAPI documents. Approvals go
// through the admin plane's ToolSettingsService as `cli:<user>`, so they are decided in one place and audited.
import { loadConfig } from '../../config/load.js';
import { configApprovals } from '../../gateway/catalogue/directory.js';
import {
  loadCatalogue,
  loadOperatorCatalogue,
  type UpstreamListing,
} from '../../gateway/catalogue/load.js';
import { openConfiguredUpstreams } from '../../gateway/federation/federation.js';
import { reloadRefusal, toolCounts } from '../../gateway/catalogue/reload-guard.js';
import type { Catalogue } from '../../gateway/catalogue/types.js';
import { formatChanges, type DefinitionChange } from '../../gateway/catalogue/definition.js';
import { openAdminServices } from '../../gateway/admin/services.js';
import {
  ToolSettingsService,
  securityClassOf,
  type AdminTool,
} from '../../gateway/admin/tool-settings.js';
import { cliActor } from '../actor.js';
import { CatalogueGenerationRepository } from '../../gateway/storage/catalogue-generation.js';
import { COMMON_OPTIONS, UsageError, parseCommandArgs, type Options } from '../args.js';
import type { StoreLocation } from '../store-location.js';
import { openGatewayStore } from './gateway-store.js';
import type { CliContext, Command } from '../context.js';

const USAGE = `Usage: toolgate tools list [--json]
       toolgate tools approve <tool>... [--json]
       toolgate tools revoke <tool>... [--json]
       toolgate tools reload [--force] [--json]

Shows the tools the gateway builds from its backends' OpenAPI documents and the tools its upstream MCP
servers (gateway.backends[].mcp) list now, with their backend, security class and approval state, and
approves or revokes tools. Each upstream is asked for its list once; one that is down or does not answer
is reported (its tools are missing from the list), not an error. Only approved tools are listed to MCP clients and callable.
A stored decision (approve/revoke) overrides the backend's "approve" setting in the configuration; running
gateways pick it up within gateway.mcp.approvalRefreshMs.

Each tool's definition (name, description, schemas, annotations, overrides, the operation it calls) is
pinned when it is approved (its SHA-256 is recorded). When a backend's OpenAPI document changes an approved
tool, the gateways hold it back (not listed, not callable) until it is approved again: "list" marks it
"held back" and prints the difference from the approved definition (JSON pointers, old → new); "approve"
pins the new definition and releases it. Both are audited.

"reload" checks that the catalogue builds from the backends' current OpenAPI documents (each valid
against the OpenAPI schema) and the configuration's overrides, then asks every gateway replica sharing this
database to rebuild its catalogue (each does within gateway.mcp.approvalRefreshMs, without a restart;
2026-07-28 clients learn of it through the listing's ttlMs). A catalogue that does not build changes
nothing: the reason is printed, exit 1. So does one the reload guard refuses: a backend left without tools,
or more than gateway.mcp.reloadMaxLoss of the tools gone compared with the catalogue last accepted; the
gateways keep serving the catalogue they have. --force asks for it anyway, and the replicas serve it.

Options:
  -c, --config FILE  configuration file (YAML or JSON); default: $TOOLGATE_CONFIG, else built-in defaults
      --force        reload: ask for the catalogue even where the reload guard refuses it
      --json         machine-readable output
  -h, --help         show this help
`;

const TOOLS_OPTIONS = {
  ...COMMON_OPTIONS,
  force: { type: 'boolean' },
} as const satisfies Options;

interface Row {
  readonly name: string;
  /** The name configuration gives the tool (differs after a rename through the admin API). */
  readonly configuredName: string;
  readonly backend: string;
  readonly securityClass: string;
  readonly approved: boolean;
  readonly source: 'stored' | 'config';
  readonly method: string;
  readonly path: string;
  /** SHA-256 of the current definition's canonical JSON. */
  readonly definitionHash: string;
  /** The approved (pinned) definition's hash; absent until pinned. */
  readonly pinnedHash?: string | undefined;
  /** Approved, but the definition changed since: not listed, not callable until approved again. */
  readonly heldBack: boolean;
  /** From the pinned definition to the current one. */
  readonly changes: readonly DefinitionChange[];
}

export const toolsCommand: Command = {
  name: 'tools',
  summary: 'List the tool catalogue; approve or revoke tools.',
  usage: USAGE,
  async run(argv, context) {
    const { values, positionals } = parseCommandArgs(argv, TOOLS_OPTIONS, true);
    if (values.help) {
      context.stdout.write(USAGE);
      return 0;
    }
    const [action, ...names] = positionals;
    if (action !== 'list' && action !== 'approve' && action !== 'revoke' && action !== 'reload')
      throw new UsageError('expected "list", "approve", "revoke" or "reload" (see --help)');
    if ((action === 'list' || action === 'reload') && names.length > 0)
      throw new UsageError(`"${action}" takes no tool names`);
    if (action !== 'reload' && values.force === true)
      throw new UsageError('--force applies to "reload" only');
    if (action === 'reload')
      return reload(context, values.config, values.json === true, values.force === true);
    if (action !== 'list' && names.length === 0)
      throw new UsageError(`"${action}" needs at least one tool name`);
    const config = loadConfig({ configPath: values.config, env: context.env });
    const { catalogue, upstreams } = await loadOperatorCatalogue(
      config.gateway.backends,
      openConfiguredUpstreams,
    );
    const { db, location } = await openGatewayStore(config, { mayCreate: action !== 'list' });
    try {
      // The admin plane's service: one place decides (and audits, as cli:<user>) a tool's approval.
      const tools = new ToolSettingsService({
        db,
        audit: openAdminServices(db, config).audit,
        loadCatalogue: async () => ({
          catalogue,
          configApproved: configApprovals(catalogue, config.gateway.backends),
        }),
      });
      if (action !== 'list') {
        const known = new Set((await tools.list()).flatMap((t) => [t.name, t.configuredName]));
        const unknown = names.filter((n) => !known.has(n));
        if (unknown.length > 0) throw new UsageError(`unknown tool(s): ${unknown.join(', ')}`);
        const actor = cliActor(context.env);
        for (const name of names)
          await tools.update(actor, name, {
            approval: action === 'approve' ? 'approved' : 'revoked',
          });
      }
      const rows = (await tools.list()).map(rowOf);
      const shown =
        action === 'list'
          ? rows
          : rows.filter((r) => names.includes(r.name) || names.includes(r.configuredName));
      print(context, shown, values.json === true, location, upstreams);
      return 0;
    } finally {
      await db.close();
    }
  },
};

async function reload(
  context: CliContext,
  configPath: string | undefined,
  json: boolean,
  force: boolean,
): Promise<number> {
  const config = loadConfig({ configPath, env: context.env });
  let catalogue: Catalogue;
  try {
    catalogue = await loadCatalogue(config.gateway.backends);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    context.stderr.write(
      `toolgate tools: the catalogue does not build, nothing changed: ${reason}\n`,
    );
    return 1;
  }
  const { db, location } = await openGatewayStore(config, { mayCreate: false });
  try {
    const generations = new CatalogueGenerationRepository(db);
    const counts = toolCounts(catalogue, config.gateway.backends);
    const refusal = reloadRefusal(
      counts,
      (await generations.read()).toolCounts,
      config.gateway.mcp.reloadMaxLoss,
    );
    if (refusal !== undefined && !force) {
      context.stderr.write(
        `toolgate tools: the catalogue is refused, nothing changed (the gateways keep serving theirs): ${refusal}; --force to reload anyway\n`,
      );
      return 1;
    }
    const generation = await generations.bump(cliActor(context.env).subject, {
      toolCounts: counts,
      forced: force,
    });
    const refreshMs = config.gateway.mcp.approvalRefreshMs;
    if (json)
      context.stdout.write(
        `${JSON.stringify({ generation, tools: catalogue.tools.length, refreshMs, store: location.summary })}\n`,
      );
    else
      context.stdout.write(
        `catalogue generation ${generation} requested (${catalogue.tools.length} tools): every gateway replica using ${Object.values(location.summary).join(' ')} rebuilds its catalogue within ${refreshMs} ms\n`,
      );
    return 0;
  } finally {
    await db.close();
  }
}

function rowOf(tool: AdminTool): Row {
  return {
    name: tool.name,
    configuredName: tool.configuredName,
    backend: tool.backend,
    securityClass: securityClassOf(tool.securityClass),
    approved: tool.approval.state === 'approved',
    source: tool.approval.source === 'stored' ? 'stored' : 'config',
    // An upstream MCP server's tool: "MCP" and its name at the upstream.
    method: tool.operation?.method ?? 'MCP',
    path: tool.operation?.path ?? tool.upstreamTool ?? '',
    definitionHash: tool.definition.hash,
    pinnedHash: tool.definition.pinned?.hash,
    heldBack: tool.definition.heldBack,
    changes: tool.definition.changes,
  };
}

function print(
  context: CliContext,
  rows: readonly Row[],
  json: boolean,
  location: StoreLocation,
  upstreams: readonly UpstreamListing[],
): void {
  if (json) {
    context.stdout.write(
      `${JSON.stringify({ tools: rows, upstreams, store: location.summary })}\n`,
    );
    return;
  }
  const header = ['TOOL', 'BACKEND', 'CLASS', 'APPROVED', 'OPERATION'];
  const lines = rows.map((r) => [
    r.name,
    r.backend,
    r.securityClass,
    `${r.approved ? 'yes' : 'no'} (${r.source})${r.heldBack ? ', held back' : ''}`,
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
  for (const upstream of upstreams)
    if (upstream.state !== 'ok')
      context.stdout.write(
        `\nUpstream MCP server ${upstream.backend} did not list its tools (${upstream.reason ?? 'no answer'}): they are missing above.\n`,
      );
  const held = rows.filter((r) => r.heldBack);
  if (held.length === 0) return;
  context.stdout.write(
    `\nHeld back: the backend's document changed ${held.length === 1 ? 'this tool' : 'these tools'} since approval (not listed, not callable). Approve again to serve the new definition: toolgate tools approve ${held.map((r) => r.name).join(' ')}\n`,
  );
  for (const r of held) {
    context.stdout.write(
      `  ${r.name} (pinned ${r.pinnedHash?.slice(0, 12) ?? '-'}…, now ${r.definitionHash.slice(0, 12)}…):\n`,
    );
    for (const line of formatChanges(r.changes)) context.stdout.write(`    ${line}\n`);
  }
}
