// Pinned tool definitions (issue 25): the interface the catalogue owns and storage implements
// (storage/tool-pins.ts). A tool whose definition no longer has its pinned hash is held back: not listed,
// not callable, until someone re-approves it (which pins the new definition).
import type { ToolDefinition } from './definition.js';

/** A tool's current definition, to pin or to hold back. */
export interface PinCandidate {
  readonly name: string;
  readonly hash: string;
  readonly definition: ToolDefinition;
}

export interface PinStore {
  /** Tool name → the hash of its pinned definition. */
  load(): Promise<ReadonlyMap<string, string>>;
  /**
   * Pins each tool that has no pin yet (approved before pins existed, or approved by configuration),
   * once across every replica; each pin is audited. Returns the names pinned now.
   */
  pinIfAbsent(tools: readonly PinCandidate[]): Promise<string[]>;
  /**
   * Records that each tool is held back (its definition differs from its pin), once per new definition
   * across every replica; each hold-back is audited with the difference. Returns the names recorded now.
   */
  recordHeld(tools: readonly PinCandidate[]): Promise<string[]>;
  /**
   * Clears a recorded hold-back of each tool whose definition is the pinned one again (the document
   * changed back), once across replicas, audited. Returns the names cleared now.
   */
  clearHeld(tools: readonly PinCandidate[]): Promise<string[]>;
}
