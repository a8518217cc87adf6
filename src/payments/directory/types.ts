// One record of the bank directory as importers produce it and the store keeps it.

export type DirectorySource = 'fedach' | 'fedwire' | 'csv' | 'bundesbank' | 'gleif';

export interface DirectoryAddress {
  readonly addressLine?: string;
  readonly townName?: string;
  readonly countrySubDivision?: string;
  readonly postalCode?: string;
  readonly phoneNumber?: string;
}

export interface DirectoryEntry {
  readonly source: DirectorySource;
  /** Unique within its source (routing number for the Fed files, the CSV row's id otherwise). */
  readonly key: string;
  readonly country: string;
  readonly bankName: string;
  readonly routingNumber?: string;
  /** 11 characters (head office padded with XXX). */
  readonly bic?: string;
  readonly bankCode?: string;
  readonly branchCode?: string;
  /** UK sort code, 6 digits. */
  readonly sortCode?: string;
  readonly participantName?: string;
  readonly officeType?: 'MAIN' | 'BRANCH';
  readonly status: 'ACTIVE' | 'INACTIVE';
  readonly transferTypes: readonly string[];
  readonly services: readonly string[];
  readonly networks: readonly string[];
  readonly newRoutingNumber?: string;
  /** GLEIF: the legal entity identifier the BIC maps to. */
  readonly lei?: string;
  /** Bundesbank: the bank code replacing this one (Nachfolge-Bankleitzahl). */
  readonly successorBankCode?: string;
  /** Bundesbank: the check-digit method of the bank code's account numbers (two characters, "00"…"E4"). */
  readonly checkMethod?: string;
  /** Bundesbank: the bank code is announced for deletion (deletion flag 1). */
  readonly deletionAnnounced?: boolean;
  /** GLEIF: the LEI's registration status (ISSUED, LAPSED, ANNULLED, RETIRED, MERGED …). */
  readonly registrationStatus?: string;
  readonly servicingFrb?: string;
  /** Date of last change reported by the source, YYYY-MM-DD. */
  readonly changedOn?: string;
  readonly address: DirectoryAddress;
  /** A record of the synthetic sample (never stored next to imported records). */
  readonly sample?: boolean;
}

/** A parsed record with the line it came from. */
export interface SourcedEntry {
  readonly line: number;
  readonly entry: DirectoryEntry;
}

export interface SkippedRecord {
  readonly line: number;
  readonly reason: string;
}

export interface ParsedFile {
  readonly entries: readonly SourcedEntry[];
  readonly skipped: readonly SkippedRecord[];
}
