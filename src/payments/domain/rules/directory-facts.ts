// What the bank directory says about an order's identifiers, as the rules receive it in their context
// (loaded by the use case: src/payments/usecases/directory-facts.ts; checked by ./directory.ts).
import type { DirectoryEntry, DirectorySource } from '../../directory/types.js';

/** What the directory says about the order's identifiers (loaded at the edge). */
export interface DirectoryFacts {
  /** Records of each routing number the order names (every source). */
  readonly routing: ReadonlyMap<string, readonly DirectoryEntry[]>;
  /** Records of each German bank code the order's IBANs carry (every source). */
  readonly bankCodes: ReadonlyMap<string, readonly DirectoryEntry[]>;
  /** GLEIF records of each LEI the order names. */
  readonly leis: ReadonlyMap<string, readonly DirectoryEntry[]>;
  /** The sources the directory holds records of. */
  readonly sources: ReadonlySet<DirectorySource>;
  /** The directory holds only the synthetic sample: absence from it proves nothing. */
  readonly sample: boolean;
}

/** The identifiers of an order the directory is asked about. */
export interface DirectoryKeys {
  readonly routingNumbers: readonly string[];
  readonly germanBankCodes: readonly string[];
  readonly leis: readonly string[];
}
