// Access requests: pending → approved | rejected (nothing else). Approval provisions one subscription per
// requested environment without keys; the requester collects the keys once, when they are minted.
import { randomBytes } from 'node:crypto';
import type { Database, SqlExecutor } from '../../shared/db/types.js';
import type { Environment } from '../auth/subscriptions/types.js';
import { isOwner, ownedBySql, ownerOf, ownerParams, type Actor } from './actor.js';
import type { AuditSink } from './audit-sink.js';
import type { ApplicationService } from './applications.js';
import { isPrivileged } from './applications.js';
import { AdminError, requireAdmin } from './errors.js';
import type { KeyProvisioning } from './provisioning.js';

export type AccessRequestStatus = 'pending' | 'approved' | 'rejected';

export interface AccessRequestInput {
  readonly application: string;
  readonly owner: { readonly name: string; readonly email: string };
  /** Tool names (or `product:NAME`), or "all". */
  readonly tools: readonly string[] | 'all';
  readonly environments: readonly Environment[];
  readonly justification: string;
  /** Tool bundles (gateway.bundles) the subscriptions are to be limited to; absent: not limited. */
  readonly bundles?: readonly string[] | undefined;
}

export interface ApprovalInput {
  /** Narrows the requested tools; absent: as requested. */
  readonly tools?: readonly string[] | 'all' | undefined;
  readonly rateLimitPerMinute?: number | null | undefined;
  readonly note?: string | undefined;
}

export interface AccessRequest {
  readonly id: string;
  readonly applicationId: string;
  readonly application: string;
  readonly requester: string;
  readonly owner: { readonly name: string; readonly email: string };
  readonly tools: readonly string[] | 'all';
  readonly environments: readonly Environment[];
  /** The tool bundles asked for (the subscriptions are limited to them); null: none. */
  readonly bundles: readonly string[] | null;
  readonly justification: string;
  readonly status: AccessRequestStatus;
  readonly approvedTools: readonly string[] | 'all' | null;
  readonly rateLimitPerMinute: number | null;
  readonly decision: {
    readonly by: string;
    readonly at: string;
    readonly note: string | null;
  } | null;
  readonly subscriptionIds: readonly string[];
  readonly keysCollectedAt: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface CollectedKeys {
  readonly subscriptions: ReadonlyArray<{
    readonly environment: Environment;
    readonly subscriptionId: string;
    readonly primaryKey: string;
    readonly secondaryKey: string;
    /** The MCP endpoint of the environment's gateway; null when none is configured (trap 5). */
    readonly gatewayUrl: string | null;
    /** The client block to paste; null when the environment has no gateway configured. */
    readonly mcpServers: Record<string, unknown> | null;
  }>;
}

interface RequestRow {
  id: string;
  application_id: string;
  application_name: string;
  requester_subject: string;
  /** null: made before owners had issuers. */
  requester_issuer: string | null;
  owner_name: string;
  owner_email: string;
  tools: string | null;
  environments: string;
  bundles: string | null;
  justification: string;
  status: AccessRequestStatus;
  approved_tools: string | null;
  rate_limit_per_minute: number | null;
  decision_note: string | null;
  decided_by: string | null;
  decided_at: string | null;
  subscription_ids: string | null;
  keys_collected_at: string | null;
  created_at: string;
  updated_at: string;
}

const SELECT = `SELECT r.*, a.name AS application_name FROM admin_access_requests r
  JOIN admin_applications a ON a.id = r.application_id`;

export interface AccessRequestDeps {
  readonly db: Database;
  readonly applications: ApplicationService;
  readonly provisioning: KeyProvisioning;
  readonly audit: AuditSink;
  /**
   * The MCP endpoint a client of each environment uses (for the `mcpServers` block); null when the
   * environment has no gateway configured (docs/decisions.md, D-299).
   */
  readonly mcpUrl: (environment: Environment) => string | null;
  readonly clock?: () => Date;
}

export class AccessRequestService {
  private readonly clock: () => Date;

  constructor(private readonly deps: AccessRequestDeps) {
    this.clock = deps.clock ?? (() => new Date());
  }

  async create(actor: Actor, input: AccessRequestInput): Promise<AccessRequest> {
    this.deps.provisioning.checkBundles(input.bundles);
    const id = `req_${randomBytes(9).toString('base64url')}`;
    return this.deps.db.transaction(async (tx) => {
      const { application, created } = await this.deps.applications.findOrCreate(
        tx,
        actor,
        input.application,
        input.owner,
      );
      if (created)
        await this.deps.audit.append(
          {
            actor,
            action: 'application.create',
            target: { type: 'application', id: application.id },
            after: { name: application.name, owner: application.owner },
          },
          tx,
        );
      const now = this.clock().toISOString();
      const requester = ownerOf(actor);
      await tx.execute(
        `INSERT INTO admin_access_requests (id, application_id, requester_issuer, requester_subject,
           owner_name, owner_email, tools, environments, justification, status, created_at, updated_at,
           bundles)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'pending', $10, $10, $11)`,
        [
          id,
          application.id,
          requester.issuer,
          requester.subject,
          input.owner.name,
          input.owner.email,
          input.tools === 'all' ? null : JSON.stringify(input.tools),
          JSON.stringify([...new Set(input.environments)]),
          input.justification,
          now,
          input.bundles === undefined ? null : JSON.stringify([...new Set(input.bundles)].sort()),
        ],
      );
      const request = await this.require(tx, id);
      await this.deps.audit.append(
        {
          actor,
          action: 'access-request.create',
          target: { type: 'access-request', id },
          after: audited(request),
        },
        tx,
      );
      return request;
    });
  }

  async list(actor: Actor, status?: AccessRequestStatus): Promise<AccessRequest[]> {
    const where: string[] = [];
    const params: string[] = [];
    if (!isPrivileged(actor)) {
      where.push(ownedBySql('r.requester_issuer', 'r.requester_subject', 1));
      params.push(...ownerParams(actor));
    }
    if (status !== undefined) {
      params.push(status);
      where.push(`r.status = $${params.length}`);
    }
    const rows = await this.deps.db.query<RequestRow>(
      `${SELECT}${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY r.created_at DESC, r.id`,
      params,
    );
    return rows.map(toRequest);
  }

  async get(actor: Actor, id: string): Promise<AccessRequest> {
    const row = await this.requireRow(this.deps.db, id);
    // Another developer's request does not exist as far as this developer can tell.
    if (!isPrivileged(actor) && !isOwner(actor, requesterOf(row)))
      throw new AdminError('NOT_FOUND', `no access request ${id}`);
    return toRequest(row);
  }

  async approve(actor: Actor, id: string, input: ApprovalInput): Promise<AccessRequest> {
    requireAdmin(actor);
    return this.deps.db.transaction(async (tx) => {
      const before = await this.pending(tx, id);
      const tools = narrowedTools(before.tools, input.tools);
      const subscriptions = await this.deps.provisioning.provisionPending(
        actor,
        {
          application: before.application,
          applicationId: before.applicationId,
          environments: before.environments,
          tools: tools === 'all' ? null : tools,
          rateLimitPerMinute: input.rateLimitPerMinute ?? null,
          bundles: before.bundles,
        },
        tx,
      );
      await tx.execute(
        `UPDATE admin_access_requests SET status = 'approved', approved_tools = $2, rate_limit_per_minute = $3,
           decision_note = $4, decided_by = $5, decided_at = $6, updated_at = $6, subscription_ids = $7
         WHERE id = $1`,
        [
          id,
          JSON.stringify(tools),
          input.rateLimitPerMinute ?? null,
          input.note ?? null,
          actor.subject,
          this.clock().toISOString(),
          JSON.stringify(subscriptions.map((s) => s.id)),
        ],
      );
      const after = await this.require(tx, id);
      await this.deps.audit.append(
        {
          actor,
          action: 'access-request.approve',
          target: { type: 'access-request', id },
          before: audited(before),
          after: audited(after),
        },
        tx,
      );
      return after;
    });
  }

  async reject(actor: Actor, id: string, reason: string): Promise<AccessRequest> {
    requireAdmin(actor);
    return this.deps.db.transaction(async (tx) => {
      const before = await this.pending(tx, id);
      const now = this.clock().toISOString();
      await tx.execute(
        `UPDATE admin_access_requests SET status = 'rejected', decision_note = $2, decided_by = $3,
           decided_at = $4, updated_at = $4 WHERE id = $1`,
        [id, reason, actor.subject, now],
      );
      const after = await this.require(tx, id);
      await this.deps.audit.append(
        {
          actor,
          action: 'access-request.reject',
          target: { type: 'access-request', id },
          before: audited(before),
          after: audited(after),
        },
        tx,
      );
      return after;
    });
  }

  /** Mints and returns the keys of an approved request, once, to its requester. */
  async collectKeys(actor: Actor, id: string): Promise<CollectedKeys> {
    return this.deps.db.transaction(async (tx) => {
      const row = await this.requireRow(tx, id, true);
      const request = toRequest(row);
      if (!isOwner(actor, requesterOf(row))) {
        if (!isPrivileged(actor)) throw new AdminError('NOT_FOUND', `no access request ${id}`);
        throw new AdminError('NOT_REQUESTER', 'only the requester collects the keys of a request');
      }
      if (request.status !== 'approved')
        throw new AdminError('REQUEST_NOT_APPROVED', `access request ${id} is ${request.status}`);
      const now = this.clock().toISOString();
      const claimed = await tx.execute(
        'UPDATE admin_access_requests SET keys_collected_at = $2, updated_at = $2 WHERE id = $1 AND keys_collected_at IS NULL',
        [id, now],
      );
      if (claimed === 0)
        throw new AdminError(
          'KEYS_ALREADY_COLLECTED',
          `the keys of access request ${id} were collected at ${request.keysCollectedAt ?? now}; an administrator can rotate them`,
        );
      const subscriptions = [];
      for (const subscriptionId of request.subscriptionIds) {
        const issued = await this.deps.provisioning.issueKeys(actor, subscriptionId, tx);
        const environment = issued.subscription.environment;
        const gatewayUrl = endpointOf(this.deps.mcpUrl(environment), issued.subscription.bundles);
        subscriptions.push({
          environment,
          subscriptionId,
          primaryKey: issued.primaryKey,
          secondaryKey: issued.secondaryKey,
          gatewayUrl,
          mcpServers:
            gatewayUrl === null
              ? null
              : {
                  mcpServers: {
                    [`toolgate-${environment}`]: {
                      type: 'http',
                      url: gatewayUrl,
                      headers: { 'Ocp-Apim-Subscription-Key': issued.primaryKey },
                    },
                  },
                },
        });
      }
      await this.deps.audit.append(
        {
          actor,
          action: 'access-request.keys.collect',
          target: { type: 'access-request', id },
          after: { subscriptionIds: request.subscriptionIds, keysCollectedAt: now },
        },
        tx,
      );
      return { subscriptions };
    });
  }

  private async pending(tx: SqlExecutor, id: string): Promise<AccessRequest> {
    const request = await this.require(tx, id, true);
    if (request.status !== 'pending')
      throw new AdminError(
        'REQUEST_NOT_PENDING',
        `access request ${id} is already ${request.status}`,
      );
    return request;
  }

  private async require(ex: SqlExecutor, id: string, lock = false): Promise<AccessRequest> {
    return toRequest(await this.requireRow(ex, id, lock));
  }

  private async requireRow(ex: SqlExecutor, id: string, lock = false): Promise<RequestRow> {
    const forUpdate = lock && ex.dialect === 'postgres' ? ' FOR UPDATE OF r' : '';
    const [row] = await ex.query<RequestRow>(`${SELECT} WHERE r.id = $1${forUpdate}`, [id]);
    if (!row) throw new AdminError('NOT_FOUND', `no access request ${id}`);
    return row;
  }
}

/**
 * The endpoint a subscription's client uses: the MCP endpoint, or the bundle's (`<MCP URL>/<name>`) when
 * the subscription is limited to bundles (the first, sorted, when several) — a key limited to a bundle is
 * refused at the plain endpoint.
 */
function endpointOf(mcpUrl: string | null, bundles: readonly string[] | null): string | null {
  const bundle = bundles?.[0];
  return mcpUrl === null || bundle === undefined
    ? mcpUrl
    : `${mcpUrl.replace(/\/+$/, '')}/${bundle}`;
}

/** Approval may narrow the requested tools, never widen them. */
function narrowedTools(
  requested: readonly string[] | 'all',
  approved: readonly string[] | 'all' | undefined,
): readonly string[] | 'all' {
  if (approved === undefined) return requested;
  if (requested === 'all') return approved;
  if (approved === 'all')
    throw new AdminError('VALIDATION_FAILED', 'tools: cannot widen a request to all tools', [
      {
        field: 'tools',
        message: 'approval can narrow the requested tools, not widen them to "all"',
      },
    ]);
  const extra = approved.filter((t) => !requested.includes(t));
  if (extra.length > 0)
    throw new AdminError('VALIDATION_FAILED', `tools: ${extra.join(', ')} were not requested`, [
      { field: 'tools', message: `not requested: ${extra.join(', ')}` },
    ]);
  return approved;
}

function audited(r: AccessRequest): Record<string, unknown> {
  return {
    application: r.application,
    status: r.status,
    tools: r.tools,
    environments: r.environments,
    bundles: r.bundles,
    approvedTools: r.approvedTools,
    rateLimitPerMinute: r.rateLimitPerMinute,
    note: r.decision?.note ?? null,
  };
}

function requesterOf(row: RequestRow): { issuer: string | null; subject: string } {
  return { issuer: row.requester_issuer, subject: row.requester_subject };
}

function toRequest(row: RequestRow): AccessRequest {
  return {
    id: row.id,
    applicationId: row.application_id,
    application: row.application_name,
    requester: row.requester_subject,
    owner: { name: row.owner_name, email: row.owner_email },
    tools: row.tools === null ? 'all' : (JSON.parse(row.tools) as string[]),
    environments: JSON.parse(row.environments) as Environment[],
    bundles: row.bundles === null ? null : (JSON.parse(row.bundles) as string[]),
    justification: row.justification,
    status: row.status,
    approvedTools:
      row.approved_tools === null ? null : (JSON.parse(row.approved_tools) as string[] | 'all'),
    rateLimitPerMinute:
      row.rate_limit_per_minute === null ? null : Number(row.rate_limit_per_minute),
    decision:
      row.decided_by === null || row.decided_at === null
        ? null
        : { by: row.decided_by, at: row.decided_at, note: row.decision_note },
    subscriptionIds:
      row.subscription_ids === null ? [] : (JSON.parse(row.subscription_ids) as string[]),
    keysCollectedAt: row.keys_collected_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
