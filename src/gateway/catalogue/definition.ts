// A tool's definition as it is pinned (issue 25, "Pinned tool definitions"): everything an agent sees
// (name, title, description, schemas, annotations) and everything the gateway uses to call it (backend,
// operation binding, security class, scopes, hidden arguments), its hash (SHA-256 of the RFC 8785
// canonical JSON), and the difference between two definitions as JSON-pointer paths. Pure.
import { createHash } from 'node:crypto';
import { canonicalJson } from '../../shared/canonical-json.js';
import type { JsonObject, Tool } from './types.js';

/** The pinned form of a tool: plain JSON, undefined members left out. */
export type ToolDefinition = JsonObject;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * The definition of `tool`. The values of hidden arguments enter as their SHA-256 digests: a changed value
 * changes the hash (and the diff names the argument) without the value itself being stored or shown, as
 * the audit log does not show it either.
 */
export function toolDefinition(tool: Tool): ToolDefinition {
  const fixed = tool.fixedArguments;
  const def: Record<string, unknown> = {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: tool.inputSchema,
    outputSchema: tool.outputSchema,
    annotations: tool.annotations,
    securityClass: tool.securityClass,
    backend: tool.backend,
    operationId: tool.operationId,
    operation: tool.operation,
    mcp: tool.mcp,
    scopes: tool.scopes,
    hiddenArguments:
      fixed === undefined
        ? undefined
        : Object.fromEntries(
            Object.entries(fixed).map(([k, v]) => [k, `sha256:${sha256(canonicalJson(v))}`]),
          ),
  };
  // Through JSON once: undefined members go, and the stored form equals the hashed one exactly.
  return JSON.parse(canonicalJson(def)) as ToolDefinition;
}

/** Hex SHA-256 of the canonical JSON (RFC 8785) of a definition. */
export function definitionHash(definition: ToolDefinition): string {
  return sha256(canonicalJson(definition));
}

/** One difference between a pinned definition and the current one, at a JSON pointer (RFC 6901). */
export interface DefinitionChange {
  readonly op: 'added' | 'removed' | 'changed';
  readonly path: string;
  readonly before?: unknown;
  readonly after?: unknown;
}

const escapePointer = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * The changes from `before` to `after`, deepest first where they differ, in path order. Objects are
 * compared member by member, arrays element by element (an element added or removed at the end is named
 * as such); a value whose type changed is one change.
 */
export function definitionChanges(before: unknown, after: unknown, path = ''): DefinitionChange[] {
  if (canonicalJson(before) === canonicalJson(after)) return [];
  if (isObject(before) && isObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    return keys.flatMap((k) => {
      const at = `${path}/${escapePointer(k)}`;
      if (!(k in after)) return [{ op: 'removed' as const, path: at, before: before[k] }];
      if (!(k in before)) return [{ op: 'added' as const, path: at, after: after[k] }];
      return definitionChanges(before[k], after[k], at);
    });
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    const out: DefinitionChange[] = [];
    for (let i = 0; i < Math.max(before.length, after.length); i++) {
      const at = `${path}/${i}`;
      if (i >= after.length) out.push({ op: 'removed', path: at, before: before[i] });
      else if (i >= before.length) out.push({ op: 'added', path: at, after: after[i] });
      else out.push(...definitionChanges(before[i], after[i], at));
    }
    return out;
  }
  return [{ op: 'changed', path: path === '' ? '/' : path, before, after }];
}

/**
 * One line per change: `~ /description: "old" → "new"`, `+ /path: value`, `- /path: value`; each value as
 * JSON, cut to `maxValueChars` (an ellipsis marks a cut).
 */
export function formatChanges(changes: readonly DefinitionChange[], maxValueChars = 400): string[] {
  const shown = (value: unknown) => {
    const text = JSON.stringify(value) ?? 'undefined';
    return text.length > maxValueChars ? `${text.slice(0, maxValueChars - 1)}…` : text;
  };
  return changes.map((c) =>
    c.op === 'changed'
      ? `~ ${c.path}: ${shown(c.before)} → ${shown(c.after)}`
      : c.op === 'added'
        ? `+ ${c.path}: ${shown(c.after)}`
        : `- ${c.path}: ${shown(c.before)}`,
  );
}
