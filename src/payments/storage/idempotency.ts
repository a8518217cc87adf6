// Idempotency keys shared by every replica through the database (a unique constraint on (scope, key),
// never process memory). Protocol (PostgreSQL; SQLite, whose writers are serialised, does all three
// steps in one transaction — see runSerialised):
//   1. claim: INSERT … ON CONFLICT DO NOTHING a row in state in_progress (its own committed statement,
//      so concurrent duplicates on any replica see it at once);
//   2. the operation runs in ONE transaction together with the completion of the key, so a stored
//      response exists exactly when the operation's writes were committed;
//   3. a duplicate sees: completed → replay; in_progress → 409; different fingerprint → 422.
// Only 2xx responses are stored; any other outcome releases the key (a corrected retry may reuse it).
// An in_progress claim older than `staleAfterMs` was abandoned by a crashed process (its transaction
// never committed) and may be taken over. Expired keys are purged.
import type { Database, SqlExecutor } from '../../shared/db/types.js';
import { PaymentError } from '../domain/errors.js';

export interface StoredResponse {
  readonly statusCode: number;
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface IdempotencyRequest {
  readonly scope: string;
  readonly key: string;
  readonly fingerprint: string;
}

export type IdempotentOutcome =
  | { readonly replayed: false; readonly response: StoredResponse }
  | { readonly replayed: true; readonly response: StoredResponse };

export interface IdempotencyOptions {
  readonly ttlMs: number;
  readonly staleAfterMs: number;
  readonly now?: () => number;
}

interface KeyRow {
  fingerprint: string;
  state: string;
  locked_at: number | string;
  expires_at: number | string;
  status_code: number | null;
  response: string | null;
}

export class IdempotencyStore {
  private readonly now: () => number;
  constructor(
    private readonly db: Database,
    private readonly options: IdempotencyOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  /** Runs `work` at most once per (scope, key); `work` gets the transaction its writes must use. */
  async run(
    request: IdempotencyRequest | undefined,
    work: (tx: SqlExecutor) => Promise<StoredResponse>,
  ): Promise<IdempotentOutcome> {
    if (!request) {
      return { replayed: false, response: await this.db.transaction(work) };
    }
    if (this.db.dialect === 'sqlite') return this.runSerialised(request, work);
    const replay = await this.claim(request);
    if (replay) return { replayed: true, response: replay };
    try {
      const response = await this.db.transaction(async (tx) => {
        const result = await work(tx);
        if (result.statusCode >= 200 && result.statusCode < 300) {
          await tx.execute(
            `UPDATE idempotency_keys SET state = 'completed', status_code = $3, response = $4
             WHERE scope = $1 AND idem_key = $2`,
            [request.scope, request.key, result.statusCode, JSON.stringify(result)],
          );
        }
        return result;
      });
      if (response.statusCode < 200 || response.statusCode >= 300) await this.release(request);
      return { replayed: false, response };
    } catch (error) {
      await this.release(request).catch(() => undefined);
      throw error;
    }
  }

  /**
   * SQLite serialises writers (BEGIN IMMEDIATE, also across processes sharing the file), so the check,
   * the operation and the stored response are one transaction: a duplicate waits for the first to
   * commit and then replays it (one commit per request instead of two).
   */
  private runSerialised(
    request: IdempotencyRequest,
    work: (tx: SqlExecutor) => Promise<StoredResponse>,
  ): Promise<IdempotentOutcome> {
    return this.db.transaction(async (tx): Promise<IdempotentOutcome> => {
      const now = this.now();
      const row = (
        await tx.query<KeyRow & Record<string, unknown>>(
          `SELECT fingerprint, state, locked_at, expires_at, status_code, response
           FROM idempotency_keys WHERE scope = $1 AND idem_key = $2`,
          [request.scope, request.key],
        )
      )[0];
      if (row && Number(row.expires_at) >= now) {
        const replay = this.check(row, request, now);
        if (replay) return { replayed: true, response: replay };
      }
      const response = await work(tx);
      if (response.statusCode >= 200 && response.statusCode < 300) {
        await tx.execute('DELETE FROM idempotency_keys WHERE scope = $1 AND idem_key = $2', [
          request.scope,
          request.key,
        ]);
        await tx.execute(
          `INSERT INTO idempotency_keys
             (scope, idem_key, fingerprint, state, locked_at, expires_at, status_code, response)
           VALUES ($1, $2, $3, 'completed', $4, $5, $6, $7)`,
          [
            request.scope,
            request.key,
            request.fingerprint,
            now,
            now + this.options.ttlMs,
            response.statusCode,
            JSON.stringify(response),
          ],
        );
      }
      return { replayed: false, response };
    });
  }

  /** For an unexpired row: the response to replay, or undefined when a stale claim may be retaken. */
  private check(row: KeyRow, request: IdempotencyRequest, now: number): StoredResponse | undefined {
    if (row.fingerprint !== request.fingerprint) {
      throw new PaymentError(
        'IDEMPOTENCY_KEY_REUSED',
        'This idempotency key was already used with a different request body.',
      );
    }
    if (row.state === 'completed' && row.response) {
      return JSON.parse(row.response) as StoredResponse;
    }
    if (Number(row.locked_at) < now - this.options.staleAfterMs) return undefined;
    throw new PaymentError(
      'IDEMPOTENCY_IN_PROGRESS',
      'A request with this idempotency key is still being processed; retry later.',
    );
  }

  /** Removes expired keys; returns how many were removed. */
  async purgeExpired(): Promise<number> {
    return this.db.execute('DELETE FROM idempotency_keys WHERE expires_at < $1', [this.now()]);
  }

  private async claim(request: IdempotencyRequest): Promise<StoredResponse | undefined> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const now = this.now();
      const inserted = await this.db.execute(
        `INSERT INTO idempotency_keys (scope, idem_key, fingerprint, state, locked_at, expires_at)
         VALUES ($1, $2, $3, 'in_progress', $4, $5) ON CONFLICT (scope, idem_key) DO NOTHING`,
        [request.scope, request.key, request.fingerprint, now, now + this.options.ttlMs],
      );
      if (inserted === 1) return undefined;
      const rows = await this.db.query<KeyRow & Record<string, unknown>>(
        `SELECT fingerprint, state, locked_at, expires_at, status_code, response
         FROM idempotency_keys WHERE scope = $1 AND idem_key = $2`,
        [request.scope, request.key],
      );
      const row = rows[0];
      if (!row) continue; // released meanwhile: try again
      if (Number(row.expires_at) < now) {
        await this.db.execute(
          'DELETE FROM idempotency_keys WHERE scope = $1 AND idem_key = $2 AND expires_at < $3',
          [request.scope, request.key, now],
        );
        continue;
      }
      const replay = this.check(row, request, now);
      if (replay) return replay;
      // A stale claim (its process died before committing anything): take it over.
      const taken = await this.db.execute(
        `UPDATE idempotency_keys SET locked_at = $3
         WHERE scope = $1 AND idem_key = $2 AND state = 'in_progress' AND locked_at = $4`,
        [request.scope, request.key, now, Number(row.locked_at)],
      );
      if (taken === 1) return undefined;
    }
    throw new PaymentError(
      'IDEMPOTENCY_IN_PROGRESS',
      'A request with this idempotency key is still being processed; retry later.',
    );
  }

  private async release(request: IdempotencyRequest): Promise<void> {
    await this.db.execute(
      `DELETE FROM idempotency_keys WHERE scope = $1 AND idem_key = $2 AND state = 'in_progress'`,
      [request.scope, request.key],
    );
  }
}
