// The approvals table (consent_approvals): insert, read, decide and redeem. Every state change is one
// conditional UPDATE, so concurrent replicas on one database never both decide or both redeem: the row
// changes only while it is still in the state the change starts from, and the loser changes nothing.
import { randomBytes } from 'node:crypto';
import type { SqlExecutor, SqlValue } from '../../../shared/db/types.js';
import type {
  ApprovalStatus,
  ConsentBinding,
  GovernedCall,
  GovernedMoney,
  PolicyDecision,
} from '../contracts.js';
import type { ApprovalFilter, ApprovalRecord } from './types.js';

interface ApprovalRow {
  id: string;
  kind: 'confirm' | 'approve';
  status: 'pending' | 'approved' | 'rejected' | 'used';
  subscription: string;
  subject: string;
  initiator_issuer: string | null;
  tool: string;
  arguments_hash: string;
  policy_version: number | string;
  call_id: string;
  rule_id: string | null;
  approver_role: string | null;
  message: string | null;
  application: string;
  environment: string;
  backend: string;
  arguments_json: string;
  money_json: string | null;
  created_at: string;
  expires_at: string;
  decided_at: string | null;
  decided_by: string | null;
  decided_by_issuer: string | null;
  decided_by_name: string | null;
  decision_reason: string | null;
  used_at: string | null;
}

/** 128 bits from the CSPRNG: an approval's id is its page's address, so it must not be guessable. */
export function newApprovalId(): string {
  return `apv_${randomBytes(16).toString('base64url')}`;
}

/** Binding columns and values, in order, compared with = (subject '' stands for an anonymous caller). */
function bindingValues(binding: ConsentBinding): SqlValue[] {
  return [
    binding.subscription,
    binding.subject ?? '',
    binding.tool,
    binding.argumentsHash,
    binding.policyVersion,
  ];
}

const BINDING_WHERE = (first: number) =>
  `subscription = $${first} AND subject = $${first + 1} AND tool = $${first + 2} AND arguments_hash = $${first + 3} AND policy_version = $${first + 4}`;

export interface NewApproval {
  readonly call: GovernedCall;
  readonly decision: PolicyDecision;
  readonly kind: 'confirm' | 'approve';
  readonly createdAt: Date;
  readonly expiresAt: Date;
}

export class ApprovalStore {
  /** `urlOf(id)`: the approval page of an approval (absolute, on the admin listener). */
  constructor(private readonly urlOf: (id: string) => string) {}

  async insert(ex: SqlExecutor, input: NewApproval): Promise<ApprovalRecord> {
    const { call, decision } = input;
    const id = newApprovalId();
    const issuer = call.caller.claims['iss'];
    await ex.execute(
      `INSERT INTO consent_approvals (id, kind, status, subscription, subject, initiator_issuer, tool,
         arguments_hash, policy_version, call_id, rule_id, approver_role, message, application, environment,
         backend, arguments_json, money_json, created_at, expires_at)
       VALUES ($1, $2, 'pending', $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)`,
      [
        id,
        input.kind,
        call.caller.subscription,
        call.caller.subject ?? '',
        typeof issuer === 'string' && issuer !== '' ? issuer : null,
        call.tool.name,
        call.argumentsHash,
        decision.policyVersion,
        call.callId,
        decision.ruleId,
        input.kind === 'approve' ? (decision.approverRole ?? null) : null,
        decision.message ?? null,
        call.caller.application,
        call.caller.environment,
        call.tool.backend,
        JSON.stringify(call.arguments),
        call.money === undefined ? null : JSON.stringify(call.money),
        input.createdAt.toISOString(),
        input.expiresAt.toISOString(),
      ],
    );
    const created = await this.get(ex, id, input.createdAt);
    if (created === null) throw new Error(`approval ${id} vanished after insert`);
    return created;
  }

  async get(ex: SqlExecutor, id: string, now: Date): Promise<ApprovalRecord | null> {
    const [row] = await ex.query<ApprovalRow>('SELECT * FROM consent_approvals WHERE id = $1', [
      id,
    ]);
    return row === undefined ? null : this.toRecord(row, now);
  }

  /** The newest pending, unexpired approval of this kind with exactly this binding (reused, not piled up). */
  async findPending(
    ex: SqlExecutor,
    binding: ConsentBinding,
    kind: 'confirm' | 'approve',
    now: Date,
  ): Promise<ApprovalRecord | null> {
    const [row] = await ex.query<ApprovalRow>(
      `SELECT * FROM consent_approvals WHERE ${BINDING_WHERE(1)} AND kind = $6
         AND status = 'pending' AND expires_at > $7 ORDER BY created_at DESC, id LIMIT 1`,
      [...bindingValues(binding), kind, now.toISOString()],
    );
    return row === undefined ? null : this.toRecord(row, now);
  }

  /** The newest approval with exactly this binding, whatever its state (why a redeem failed). */
  async newestFor(
    ex: SqlExecutor,
    binding: ConsentBinding,
    now: Date,
  ): Promise<ApprovalRecord | null> {
    const [row] = await ex.query<ApprovalRow>(
      `SELECT * FROM consent_approvals WHERE ${BINDING_WHERE(1)} ORDER BY created_at DESC, id LIMIT 1`,
      bindingValues(binding),
    );
    return row === undefined ? null : this.toRecord(row, now);
  }

  async list(
    ex: SqlExecutor,
    filter: ApprovalFilter,
    now: Date,
    limit = 200,
  ): Promise<ApprovalRecord[]> {
    const at = now.toISOString();
    const where: Record<ApprovalFilter, [string, SqlValue[]]> = {
      all: ['', []],
      pending: [`WHERE status = 'pending' AND expires_at > $1`, [at]],
      approved: [`WHERE status = 'approved' AND expires_at > $1`, [at]],
      expired: [`WHERE status IN ('pending', 'approved') AND expires_at <= $1`, [at]],
      rejected: [`WHERE status = 'rejected'`, []],
      used: [`WHERE status = 'used'`, []],
    };
    const [clause, params] = where[filter];
    const rows = await ex.query<ApprovalRow>(
      `SELECT * FROM consent_approvals ${clause} ORDER BY created_at DESC, id LIMIT ${Math.max(1, Math.min(limit, 1000))}`,
      params,
    );
    return rows.map((row) => this.toRecord(row, now));
  }

  /** pending → approved | rejected while unexpired; false when the row was not pending (or expired). */
  async decide(
    ex: SqlExecutor,
    id: string,
    input: {
      readonly status: 'approved' | 'rejected';
      readonly by: {
        readonly subject: string;
        readonly issuer: string;
        readonly name?: string | undefined;
      };
      readonly reason?: string | undefined;
      readonly at: Date;
    },
  ): Promise<boolean> {
    const at = input.at.toISOString();
    const changed = await ex.execute(
      `UPDATE consent_approvals SET status = $2, decided_at = $3, decided_by = $4, decided_by_issuer = $5,
         decided_by_name = $6, decision_reason = $7
       WHERE id = $1 AND status = 'pending' AND expires_at > $3`,
      [
        id,
        input.status,
        at,
        input.by.subject,
        input.by.issuer,
        input.by.name ?? null,
        input.reason ?? null,
      ],
    );
    return changed === 1;
  }

  /**
   * Consumes the receipt: approved → used, once, while unexpired and only for exactly this binding. With
   * no id, the newest approved one with the binding. Null when nothing was consumed.
   */
  async redeem(
    ex: SqlExecutor,
    binding: ConsentBinding,
    approvalId: string | undefined,
    now: Date,
    kind?: 'confirm' | 'approve',
  ): Promise<ApprovalRecord | null> {
    const at = now.toISOString();
    // Only a receipt of the kind of consent the call needs now (review of issue 25).
    const ofKind = kind === undefined ? '' : ` AND kind = $${approvalId !== undefined ? 8 : 7}`;
    const target =
      approvalId !== undefined
        ? { sql: '$7', params: [approvalId] as SqlValue[] }
        : {
            sql: `(SELECT id FROM consent_approvals WHERE ${BINDING_WHERE(1)} AND status = 'approved'
                     AND expires_at > $6${ofKind} ORDER BY decided_at DESC, id LIMIT 1)`,
            params: [] as SqlValue[],
          };
    const [row] = await ex.query<ApprovalRow>(
      `UPDATE consent_approvals SET status = 'used', used_at = $6
       WHERE id = ${target.sql} AND ${BINDING_WHERE(1)} AND status = 'approved' AND expires_at > $6${ofKind}
       RETURNING *`,
      [...bindingValues(binding), at, ...target.params, ...(kind === undefined ? [] : [kind])],
    );
    return row === undefined ? null : this.toRecord(row, now);
  }

  private toRecord(row: ApprovalRow, now: Date): ApprovalRecord {
    const expired =
      (row.status === 'pending' || row.status === 'approved') &&
      row.expires_at <= now.toISOString();
    const status: ApprovalStatus = expired ? 'expired' : row.status;
    const money =
      row.money_json === null ? undefined : (JSON.parse(row.money_json) as GovernedMoney);
    return {
      id: row.id,
      kind: row.kind,
      status,
      binding: {
        subscription: row.subscription,
        subject: row.subject === '' ? null : row.subject,
        tool: row.tool,
        argumentsHash: row.arguments_hash,
        policyVersion: Number(row.policy_version),
      },
      callId: row.call_id,
      ruleId: row.rule_id,
      ...(row.approver_role === null ? {} : { approverRole: row.approver_role }),
      url: this.urlOf(row.id),
      createdAt: row.created_at,
      expiresAt: row.expires_at,
      ...(row.decided_by === null ? {} : { decidedBy: row.decided_by }),
      ...(row.decided_at === null ? {} : { decidedAt: row.decided_at }),
      ...(row.decided_by_name === null ? {} : { decidedByName: row.decided_by_name }),
      ...(row.decision_reason === null ? {} : { decisionReason: row.decision_reason }),
      ...(row.used_at === null ? {} : { usedAt: row.used_at }),
      initiator: {
        issuer: row.initiator_issuer,
        subject: row.subject === '' ? null : row.subject,
      },
      details: {
        application: row.application,
        environment: row.environment,
        backend: row.backend,
        arguments: JSON.parse(row.arguments_json) as Record<string, unknown>,
        ...(money === undefined ? {} : { money }),
        ...(row.message === null ? {} : { message: row.message }),
      },
    };
  }
}
