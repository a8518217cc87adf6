// Whether a catalogue built from the backends' documents may be served. A document that is valid OpenAPI
// can still be a mistake — `paths: {}` saved by accident, or half the operations lost in an edit — and a
// reload serves it on every replica at once. So a catalogue that leaves a configured backend without tools
// is refused (at startup there is nothing to keep serving instead, so it is a startup error), and a reload
// that would remove more than `gateway.mcp.reloadMaxLoss` of the tools is refused too, unless forced
// (`toolgate tools reload --force`). Tools are counted per backend, so renames do not count as losses and
// gains in one backend do not hide losses in another. Pure.
import { GatewayError } from '../errors.js';
import type { Catalogue } from './types.js';

/** Tools per configured backend (0 for a backend that yields none). */
export type ToolCounts = Readonly<Record<string, number>>;

export function toolCounts(
  catalogue: Catalogue,
  backends: readonly { name: string; mcp?: unknown }[],
): ToolCounts {
  // An upstream MCP server's tools come and go with the upstream (federation/federated-tools.ts): the
  // guard is about OpenAPI documents, so only their backends and tools are counted.
  const counts: Record<string, number> = Object.fromEntries(
    backends.filter((b) => b.mcp === undefined).map((b) => [b.name, 0]),
  );
  for (const tool of catalogue.tools)
    if (tool.mcp === undefined) counts[tool.backend] = (counts[tool.backend] ?? 0) + 1;
  return counts;
}

/**
 * Why `next` may not be served in place of `previous` (null: at startup, or nothing known), or undefined
 * when it may.
 */
export function reloadRefusal(
  next: ToolCounts,
  previous: ToolCounts | null,
  maxLoss: number,
): string | undefined {
  const empty = Object.keys(next).filter((backend) => next[backend] === 0);
  if (empty.length > 0)
    return `${empty.map((b) => `backend ${b}`).join(', ')}: ${empty.length === 1 ? 'its OpenAPI document yields' : 'their OpenAPI documents yield'} no tools (no operations under paths)`;
  if (previous === null) return undefined;
  let before = 0;
  let lost = 0;
  for (const [backend, count] of Object.entries(previous)) {
    before += count;
    lost += Math.max(0, count - (next[backend] ?? 0));
  }
  if (before === 0 || lost / before <= maxLoss) return undefined;
  return `the reload would remove ${lost} of ${before} tools (${percent(lost / before)}), more than gateway.mcp.reloadMaxLoss (${percent(maxLoss)}) allows`;
}

/** The refusal as the error a reload or a start fails with. */
export function checkCatalogue(
  next: ToolCounts,
  previous: ToolCounts | null,
  maxLoss: number,
): void {
  const refusal = reloadRefusal(next, previous, maxLoss);
  if (refusal !== undefined)
    throw new GatewayError('CATALOGUE_LOAD_FAILED', `the catalogue is refused: ${refusal}`);
}

function percent(share: number): string {
  return `${Math.round(share * 100)} %`;
}
