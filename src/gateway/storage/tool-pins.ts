// Pinned tool definitions (gateway_tool_pins, issue 25): the definition each tool was approved with and
// its hash, and the changed definition last held back. The data plane pins approved tools that have none
// and records hold-backs (catalogue/pins.ts's PinStore); the admin plane re-pins on approval. Every pin and
// hold-back is written in one transaction with its audit entry; conditional writes make each happen once
// across replicas.
import type { Database, SqlExecutor } from '../../shared/db/types.js';
import { definitionChanges, formatChanges, type ToolDefinition } from '../catalogue/definition.js';
import type { PinCandidate, PinStore } from '../catalogue/pins.js';
import { appendAuditEntry } from './audit-chain.js';

export interface PinRecord {
  readonly toolName: string;
  readonly hash: string;
  readonly definition: ToolDefinition;
  readonly pinnedAt: string;
  readonly pinnedBy: string;
  /** The changed definition last recorded as held back, if any. */
  readonly held?: { readonly hash: string; readonly at: string } | undefined;
}

interface PinRow {
  tool_name: string;
  definition_hash: string;
  definition: string;
  pinned_at: string;
  pinned_by: string;
  held_hash: string | null;
  held_at: string | null;
}

/** The gateway itself, as the actor of pins it records on its own. */
const GATEWAY_ACTOR = { role: 'system', subject: 'gateway', via: 'system' } as const;

/** Audit entries keep at most this many lines of a difference. */
const MAX_AUDITED_CHANGES = 50;

/** The difference as the audit log keeps it: readable lines, bounded. */
export function auditedChanges(before: ToolDefinition, after: ToolDefinition): string[] {
  const lines = formatChanges(definitionChanges(before, after));
  return lines.length > MAX_AUDITED_CHANGES
    ? [...lines.slice(0, MAX_AUDITED_CHANGES), `… ${lines.length - MAX_AUDITED_CHANGES} more`]
    : lines;
}

export class ToolPinRepository implements PinStore {
  constructor(
    private readonly db: Database,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async load(): Promise<ReadonlyMap<string, string>> {
    const rows = await this.db.query<{ tool_name: string; definition_hash: string }>(
      'SELECT tool_name, definition_hash FROM gateway_tool_pins',
    );
    return new Map(rows.map((r) => [r.tool_name, r.definition_hash]));
  }

  async list(tx: SqlExecutor = this.db): Promise<Map<string, PinRecord>> {
    const rows = await tx.query<PinRow>('SELECT * FROM gateway_tool_pins ORDER BY tool_name');
    return new Map(rows.map((r) => [r.tool_name, recordOf(r)]));
  }

  async pinIfAbsent(tools: readonly PinCandidate[]): Promise<string[]> {
    const pinned: string[] = [];
    for (const tool of tools) {
      const now = this.clock();
      const done = await this.db.transaction(async (tx) => {
        const n = await tx.execute(
          `INSERT INTO gateway_tool_pins (tool_name, definition_hash, definition, pinned_at, pinned_by)
           VALUES ($1, $2, $3, $4, $5) ON CONFLICT (tool_name) DO NOTHING`,
          [tool.name, tool.hash, JSON.stringify(tool.definition), now.toISOString(), 'gateway'],
        );
        if (n !== 1) return false;
        await appendAuditEntry(
          tx,
          {
            actor: GATEWAY_ACTOR,
            action: 'tool.pin',
            target: { type: 'tool', id: tool.name },
            after: {
              definitionHash: tool.hash,
              reason: 'an approved tool without a pinned definition: its current one is pinned',
            },
          },
          now,
        );
        return true;
      });
      if (done) pinned.push(tool.name);
    }
    return pinned;
  }

  async recordHeld(tools: readonly PinCandidate[]): Promise<string[]> {
    const held: string[] = [];
    for (const tool of tools) {
      const now = this.clock();
      const done = await this.db.transaction(async (tx) => {
        const n = await tx.execute(
          `UPDATE gateway_tool_pins SET held_hash = $2, held_definition = $3, held_at = $4
           WHERE tool_name = $1 AND definition_hash <> $2 AND (held_hash IS NULL OR held_hash <> $2)`,
          [tool.name, tool.hash, JSON.stringify(tool.definition), now.toISOString()],
        );
        if (n !== 1) return false;
        const [pin] = await tx.query<PinRow>(
          'SELECT * FROM gateway_tool_pins WHERE tool_name = $1',
          [tool.name],
        );
        if (!pin) return false;
        await appendAuditEntry(
          tx,
          {
            actor: GATEWAY_ACTOR,
            action: 'tool.hold',
            target: { type: 'tool', id: tool.name },
            before: { definitionHash: pin.definition_hash },
            after: {
              definitionHash: tool.hash,
              reason:
                "the backend's document changed the tool's definition: it is held back until re-approved",
              changes: auditedChanges(recordOf(pin).definition, tool.definition),
            },
          },
          now,
        );
        return true;
      });
      if (done) held.push(tool.name);
    }
    return held;
  }

  async clearHeld(tools: readonly PinCandidate[]): Promise<string[]> {
    const cleared: string[] = [];
    // One read finds the few recorded hold-backs; only those are written.
    const held = await this.db.query<{ tool_name: string; definition_hash: string }>(
      'SELECT tool_name, definition_hash FROM gateway_tool_pins WHERE held_hash IS NOT NULL',
    );
    const back = new Set(held.map((r) => `${r.tool_name}\u0000${r.definition_hash}`));
    for (const tool of tools.filter((t) => back.has(`${t.name}\u0000${t.hash}`))) {
      const now = this.clock();
      const done = await this.db.transaction(async (tx) => {
        const [pin] = await tx.query<PinRow>(
          'SELECT * FROM gateway_tool_pins WHERE tool_name = $1 AND definition_hash = $2 AND held_hash IS NOT NULL',
          [tool.name, tool.hash],
        );
        if (!pin) return false;
        const n = await tx.execute(
          `UPDATE gateway_tool_pins SET held_hash = NULL, held_definition = NULL, held_at = NULL
           WHERE tool_name = $1 AND definition_hash = $2 AND held_hash = $3`,
          [tool.name, tool.hash, pin.held_hash],
        );
        if (n !== 1) return false;
        await appendAuditEntry(
          tx,
          {
            actor: GATEWAY_ACTOR,
            action: 'tool.unhold',
            target: { type: 'tool', id: tool.name },
            before: { definitionHash: pin.held_hash },
            after: {
              definitionHash: tool.hash,
              reason:
                "the backend's document gives the approved definition again: the tool is served",
            },
          },
          now,
        );
        return true;
      });
      if (done) cleared.push(tool.name);
    }
    return cleared;
  }

  /**
   * Pins `tool`'s current definition inside `tx` (an approval), clearing any hold-back; returns the pin it
   * replaces, if any (the caller audits the change with the approval).
   */
  async pin(
    tx: SqlExecutor,
    tool: PinCandidate,
    by: string,
    at: Date,
  ): Promise<PinRecord | undefined> {
    const [previous] = await tx.query<PinRow>(
      'SELECT * FROM gateway_tool_pins WHERE tool_name = $1',
      [tool.name],
    );
    await tx.execute(
      `INSERT INTO gateway_tool_pins (tool_name, definition_hash, definition, pinned_at, pinned_by)
       VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (tool_name) DO UPDATE SET definition_hash = excluded.definition_hash,
         definition = excluded.definition, pinned_at = excluded.pinned_at,
         pinned_by = excluded.pinned_by, held_hash = NULL, held_definition = NULL, held_at = NULL`,
      [tool.name, tool.hash, JSON.stringify(tool.definition), at.toISOString(), by],
    );
    return previous ? recordOf(previous) : undefined;
  }

  /** Drops the pin of a name no tool has any more (a rename through the admin API), inside `tx`. */
  async remove(tx: SqlExecutor, toolName: string): Promise<void> {
    await tx.execute('DELETE FROM gateway_tool_pins WHERE tool_name = $1', [toolName]);
  }
}

function recordOf(r: PinRow): PinRecord {
  return {
    toolName: r.tool_name,
    hash: r.definition_hash,
    definition: JSON.parse(r.definition) as ToolDefinition,
    pinnedAt: r.pinned_at,
    pinnedBy: r.pinned_by,
    held: r.held_hash === null ? undefined : { hash: r.held_hash, at: r.held_at ?? r.pinned_at },
  };
}
