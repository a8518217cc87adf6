// The evidence of governed calls: each decision, consent, receipt and backend answer, appended to the
// hash-chained audit log with the call's id as its target (`call:<callId>`), so
// `GET /admin/api/v1/audit?call=<callId>` tells one call's whole story. The data plane owns this interface;
// storage/governance-evidence.ts writes it into the audit chain.
export interface EvidenceSink {
  /** Appends one entry about the call; `details` is plain JSON, never a key or token. */
  record(callId: string, action: string, details: Readonly<Record<string, unknown>>): Promise<void>;
}
