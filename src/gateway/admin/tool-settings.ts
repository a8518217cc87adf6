// The tool catalogue as the admin API shows and changes it: every tool with its backend, approval state,
// security class, annotations and stored overrides; a change of approval is stored for the replicas'
// approval refresh (gateway.mcp.approvalRefreshMs), a change of overrides or security class also raises
// the catalogue generation so every replica rebuilds its catalogue without a restart. Approving a tool, or
// changing an approved tool's overrides, pins its definition (issue 25): a tool whose definition later
// changes is shown held back, with the difference. Each change is one transaction with its audit entries.
import { Type, type Static } from '@sinclair/typebox';
import type { Database } from '../../shared/db/types.js';
import { configApprovals, type ApprovalState } from '../catalogue/directory.js';
import {
  definitionChanges,
  definitionHash,
  toolDefinition,
  type DefinitionChange,
} from '../catalogue/definition.js';
import type { PinCandidate } from '../catalogue/pins.js';
import type { FrozenConfig } from '../../config/schema.js';
import { loadOperatorCatalogue } from '../catalogue/load.js';
import { openConfiguredUpstreams } from '../federation/federation.js';
import {
  applyToolSettings,
  type SettledCatalogue,
  type StoredToolSettings,
  type ToolSettingsMap,
} from '../catalogue/tool-settings.js';
import type { Catalogue, SecurityClass, Tool, ToolAnnotations } from '../catalogue/types.js';
import { GatewayError } from '../errors.js';
import { ApprovalRepository } from '../storage/approvals.js';
import { CatalogueGenerationRepository, bumpGeneration } from '../storage/catalogue-generation.js';
import { ToolSettingsRepository } from '../storage/tool-settings.js';
import { ToolPinRepository, auditedChanges, type PinRecord } from '../storage/tool-pins.js';
import type { Actor } from './actor.js';
import type { AuditSink } from './audit-sink.js';
import { AdminError, requireAdmin } from './errors.js';
import { stringEnum } from '../../shared/json-schema/string-enum.js';

/** The catalogue's name of an admin API security class. */
export function securityClassOf(api: ApiSecurityClass): SecurityClass {
  return FROM_API[api];
}

/** Security classes as the admin API names them. */
export type ApiSecurityClass = 'public' | 'user' | 'optional';

const TO_API: Readonly<Record<SecurityClass, ApiSecurityClass>> = {
  public: 'public',
  'user-scoped': 'user',
  optional: 'optional',
};
const FROM_API: Readonly<Record<ApiSecurityClass, SecurityClass>> = {
  public: 'public',
  user: 'user-scoped',
  optional: 'optional',
};

const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) =>
  Type.Union([schema, Type.Null()]);

export const ToolPatchSchema = Type.Object(
  {
    approval: Type.Optional(stringEnum(['approved', 'revoked'] as const)),
    securityClass: Type.Optional(
      Type.Union([stringEnum(['public', 'user', 'optional'] as const), Type.Null()]),
    ),
    name: Type.Optional(Nullable(Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$' }))),
    title: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 200 }))),
    description: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 8192 }))),
    annotations: Type.Optional(
      Type.Union([
        Type.Object(
          {
            title: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
            readOnlyHint: Type.Optional(Type.Boolean()),
            destructiveHint: Type.Optional(Type.Boolean()),
            idempotentHint: Type.Optional(Type.Boolean()),
            openWorldHint: Type.Optional(Type.Boolean()),
          },
          { additionalProperties: false },
        ),
        Type.Null(),
      ]),
    ),
    hidden: Type.Optional(
      Type.Union([
        Type.Record(Type.String({ minLength: 1, maxLength: 64 }), Type.Unknown(), {
          description: 'arguments removed from the tool and always sent with this value',
        }),
        Type.Null(),
      ]),
    ),
  },
  { additionalProperties: false },
);

/** A change to one tool: absent = unchanged, null = back to the document's (or configuration's) value. */
export type ToolPatch = Static<typeof ToolPatchSchema>;

export interface AdminTool {
  readonly name: string;
  /** The name configuration gives the tool (stored settings are kept under it). */
  readonly configuredName: string;
  readonly backend: string;
  readonly operationId?: string | undefined;
  readonly title?: string | undefined;
  readonly description?: string | undefined;
  /** The backend operation the tool calls (OpenAPI backends). */
  readonly operation?: { readonly method: string; readonly path: string } | undefined;
  /** The tool's name at its upstream MCP server (MCP backends). */
  readonly upstreamTool?: string | undefined;
  readonly approval: {
    readonly state: ApprovalState;
    readonly source: 'configuration' | 'stored';
    readonly updatedAt?: string | undefined;
    readonly updatedBy?: string | undefined;
  };
  readonly securityClass: ApiSecurityClass;
  readonly annotations: ToolAnnotations;
  /** Arguments hidden from agents (sent with a fixed value). */
  readonly hiddenArguments: readonly string[];
  /** The stored overrides (the admin API's own; configuration overrides are already in the values). */
  readonly overrides: Readonly<Record<string, unknown>>;
  /** The pinned definition (issue 25, "Pinned tool definitions"). */
  readonly definition: ToolDefinitionState;
}

export interface ToolDefinitionState {
  /** SHA-256 of the canonical JSON (RFC 8785) of the tool's current definition. */
  readonly hash: string;
  /** The pin: the hash of the definition last approved, when and by whom; absent until pinned. */
  readonly pinned?: { readonly hash: string; readonly at: string; readonly by: string } | undefined;
  /**
   * Approved, but the current definition differs from the pinned one (the backend's document changed
   * it): not listed to MCP clients, not callable, until re-approved.
   */
  readonly heldBack: boolean;
  /** From the pinned definition to the current one (empty when they are equal or nothing is pinned). */
  readonly changes: readonly DefinitionChange[];
}

/** The catalogue as configuration builds it, and the tools configuration approves. */
export interface ConfiguredCatalogue {
  readonly catalogue: Catalogue;
  readonly configApproved: ReadonlySet<string>;
}

export interface ToolSettingsDeps {
  readonly db: Database;
  readonly audit: AuditSink;
  /** Loads the configured catalogue (the backends' documents and configuration overrides). */
  readonly loadCatalogue: () => Promise<ConfiguredCatalogue>;
  readonly now?: () => Date;
}

export class ToolSettingsService {
  private readonly approvals: ApprovalRepository;
  private readonly settings: ToolSettingsRepository;
  private readonly generations: CatalogueGenerationRepository;
  private readonly pins: ToolPinRepository;
  private cached: { generation: number; configured: Promise<ConfiguredCatalogue> } | undefined;

  constructor(private readonly deps: ToolSettingsDeps) {
    this.approvals = new ApprovalRepository(deps.db);
    this.settings = new ToolSettingsRepository(deps.db);
    this.generations = new CatalogueGenerationRepository(deps.db);
    this.pins = new ToolPinRepository(deps.db);
  }

  /** Every tool, sorted by name. Any signed-in actor may list (developers choose tools to request). */
  async list(): Promise<AdminTool[]> {
    return (await this.listWithDefinitions()).map((entry) => entry.tool);
  }

  /**
   * Every tool with the definition agents are served (input schema without hidden arguments, scopes,
   * security class): what the developer catalogue shows and "Try it" builds its form from.
   */
  async listWithDefinitions(): Promise<{ tool: AdminTool; definition: Tool }[]> {
    const configured = await this.configured();
    const stored = await this.settings.list();
    const settled = this.settle(
      configured.catalogue,
      new Map(stored.map((s) => [s.toolName, s.settings])),
    );
    const approvals = new Map((await this.approvals.list()).map((a) => [a.toolName, a]));
    const pins = await this.pins.list();
    return settled.catalogue.tools.map((tool) => {
      const configuredName = settled.configuredName.get(tool.name) ?? tool.name;
      const approval = approvals.get(tool.name);
      const overrides = stored.find((s) => s.toolName === configuredName)?.settings ?? {};
      const pin = pins.get(tool.name);
      return {
        tool: view(tool, configuredName, configured.configApproved, approval, overrides, pin),
        definition: tool,
      };
    });
  }

  async get(name: string): Promise<AdminTool> {
    const tool = (await this.list()).find((t) => t.name === name || t.configuredName === name);
    if (!tool) throw new AdminError('UNKNOWN_TOOL', `There is no tool named "${name}".`);
    return tool;
  }

  /** Applies a change to one tool (admins only); returns the tool as every replica will serve it. */
  async update(actor: Actor, name: string, patch: ToolPatch): Promise<AdminTool> {
    requireAdmin(actor);
    const before = await this.get(name);
    const configured = await this.configured();
    const now = this.deps.now?.() ?? new Date();
    return this.deps.db.transaction(async (tx) => {
      const all = new Map(await this.settings.load(tx));
      const previous = all.get(before.configuredName) ?? {};
      const next = merged(previous, patch);
      all.set(before.configuredName, next);
      const settled = this.settle(configured.catalogue, all, true);
      const renamed = [...settled.configuredName].find(([, c]) => c === before.configuredName)?.[0];
      const newName = renamed ?? before.name;
      const overridesChanged = JSON.stringify(previous) !== JSON.stringify(next);
      if (overridesChanged) {
        await this.settings.put(tx, before.configuredName, next, actor.subject, now);
        if (newName !== before.name) await this.approvals.rename(tx, before.name, newName);
        await bumpGeneration(tx, `admin:${actor.subject}`, now);
      }
      if (patch.approval !== undefined)
        await this.approvals.set(newName, patch.approval, actor.subject, now, tx);
      const tool = settled.catalogue.byName.get(newName) as Tool;
      // The approval after: the one just stored, else the stored one carried over (a rename moved it),
      // else none (configuration decides, by the configured name).
      const approval =
        patch.approval !== undefined
          ? { state: patch.approval, updatedAt: now.toISOString(), updatedBy: actor.subject }
          : before.approval.source === 'stored'
            ? before.approval
            : undefined;
      // An approval, or a change to an approved tool's overrides, pins the definition as it now is.
      const approvedAfter =
        (approval?.state ??
          (configured.configApproved.has(before.configuredName) ? 'approved' : 'revoked')) ===
        'approved';
      const current = candidateOf(tool);
      // A rename moves the pin to the new name (the definition, which holds the name, is pinned anew).
      const renamedPin =
        newName !== before.name ? (await this.pins.list(tx)).get(before.name) : undefined;
      if (newName !== before.name) await this.pins.remove(tx, before.name);
      let repinned: { previous: PinRecord | undefined } | undefined;
      if (patch.approval === 'approved' || (overridesChanged && approvedAfter))
        repinned = {
          previous: (await this.pins.pin(tx, current, actor.subject, now)) ?? renamedPin,
        };
      const pin = (await this.pins.list(tx)).get(newName);
      const after = view(
        tool,
        before.configuredName,
        configured.configApproved,
        approval,
        next,
        pin,
      );
      if (repinned && repinned.previous?.hash !== current.hash)
        await this.deps.audit.append(
          {
            actor,
            action: 'tool.pin',
            target: { type: 'tool', id: before.configuredName },
            ...(repinned.previous
              ? {
                  before: {
                    name: repinned.previous.toolName,
                    definitionHash: repinned.previous.hash,
                  },
                }
              : {}),
            after: {
              name: newName,
              definitionHash: current.hash,
              ...(repinned.previous
                ? { changes: auditedChanges(repinned.previous.definition, current.definition) }
                : {}),
            },
          },
          tx,
        );
      await this.deps.audit.append(
        {
          actor,
          action: 'tool.update',
          target: { type: 'tool', id: before.configuredName },
          before: auditable(before),
          after: auditable(after),
        },
        tx,
      );
      return after;
    });
  }

  private settle(
    catalogue: Catalogue,
    settings: ToolSettingsMap,
    strict = false,
  ): SettledCatalogue {
    try {
      return applyToolSettings(catalogue, settings);
    } catch (error) {
      if (!(error instanceof GatewayError)) throw error;
      if (strict)
        throw new AdminError('TOOL_SETTINGS_INVALID', error.message, [
          { field: fieldOf(error.message), message: error.message },
        ]);
      return { catalogue, configuredName: new Map() };
    }
  }

  /** The configured catalogue, loaded again only when the catalogue generation has moved on. */
  private async configured(): Promise<ConfiguredCatalogue> {
    const generation = await this.generations.current();
    if (this.cached === undefined || this.cached.generation !== generation) {
      const configured = this.deps.loadCatalogue();
      this.cached = { generation, configured };
      configured.catch(() => {
        if (this.cached?.configured === configured) this.cached = undefined;
      });
    }
    return this.cached.configured;
  }
}

function merged(previous: StoredToolSettings, patch: ToolPatch): StoredToolSettings {
  const out: Record<string, unknown> = { ...previous };
  const set = (key: string, value: unknown) => {
    if (value === undefined) return;
    if (value === null) delete out[key];
    else out[key] = value;
  };
  set('name', patch.name);
  set('title', patch.title);
  set('description', patch.description);
  set('annotations', patch.annotations);
  set('hidden', patch.hidden);
  set(
    'securityClass',
    patch.securityClass === null || patch.securityClass === undefined
      ? patch.securityClass
      : FROM_API[patch.securityClass],
  );
  if (out.hidden !== undefined && Object.keys(out.hidden as object).length === 0) delete out.hidden;
  return out as StoredToolSettings;
}

function candidateOf(tool: Tool): PinCandidate {
  const definition = toolDefinition(tool);
  return { name: tool.name, hash: definitionHash(definition), definition };
}

function definitionState(
  tool: Tool,
  approved: boolean,
  pin: PinRecord | undefined,
): ToolDefinitionState {
  const current = candidateOf(tool);
  if (!pin) return { hash: current.hash, heldBack: false, changes: [] };
  const changed = pin.hash !== current.hash;
  return {
    hash: current.hash,
    pinned: { hash: pin.hash, at: pin.pinnedAt, by: pin.pinnedBy },
    heldBack: approved && changed,
    changes: changed ? definitionChanges(pin.definition, current.definition) : [],
  };
}

function view(
  tool: Tool,
  configuredName: string,
  configApproved: ReadonlySet<string>,
  approval: { state: ApprovalState; updatedAt?: string; updatedBy?: string } | undefined,
  overrides: StoredToolSettings,
  pin: PinRecord | undefined,
): AdminTool {
  const { securityClass, ...rest } = overrides;
  const approved = approval ? approval.state === 'approved' : configApproved.has(configuredName);
  return {
    name: tool.name,
    configuredName,
    backend: tool.backend,
    operationId: tool.operationId,
    title: tool.title,
    description: tool.description,
    operation: tool.operation
      ? { method: tool.operation.method, path: tool.operation.pathTemplate }
      : undefined,
    upstreamTool: tool.mcp?.name,
    approval: approval
      ? {
          state: approval.state,
          source: 'stored',
          updatedAt: approval.updatedAt,
          updatedBy: approval.updatedBy,
        }
      : {
          state: configApproved.has(configuredName) ? 'approved' : 'revoked',
          source: 'configuration',
        },
    securityClass: TO_API[tool.securityClass],
    annotations: tool.annotations,
    hiddenArguments: Object.keys(tool.fixedArguments ?? {}),
    overrides: {
      ...rest,
      ...(securityClass === undefined ? {} : { securityClass: TO_API[securityClass] }),
    },
    definition: definitionState(tool, approved, pin),
  };
}

/** What the audit log keeps of a tool: its settings, not its descriptions' full text nor hidden values. */
function auditable(tool: AdminTool): Record<string, unknown> {
  const { hidden, ...overrides } = tool.overrides as { hidden?: Record<string, unknown> };
  return {
    name: tool.name,
    approval: tool.approval.state,
    definitionHash: tool.definition.hash,
    securityClass: tool.securityClass,
    overrides: { ...overrides, ...(hidden ? { hidden: Object.keys(hidden) } : {}) },
  };
}

function fieldOf(message: string): string {
  const hidden = /\.hidden\.([A-Za-z0-9_-]+)/.exec(message);
  if (hidden) return `hidden.${hidden[1]}`;
  if (/would be named/.test(message)) return 'name';
  return '(body)';
}

/**
 * `loadCatalogue` for a ToolSettingsService of the configured backends (the admin listener's): the OpenAPI
 * tools and the upstream MCP servers' tools as they list them when loaded (issue 28).
 */
export function configuredToolCatalogue(
  backends: FrozenConfig['gateway']['backends'],
): () => Promise<ConfiguredCatalogue> {
  return async () => {
    const { catalogue } = await loadOperatorCatalogue(backends, openConfiguredUpstreams);
    return { catalogue, configApproved: configApprovals(catalogue, backends) };
  };
}
