// The payment record as the API carries it (already schema-validated JSON) and small typed readers.
export type PaymentRecord = Record<string, unknown>;
export type JsonObject = Record<string, unknown>;

export function obj(value: unknown): JsonObject | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as JsonObject)
    : undefined;
}

/** Reads a nested member by path; undefined when any step is missing. */
export function at(record: unknown, ...path: string[]): unknown {
  let current: unknown = record;
  for (const key of path) current = obj(current)?.[key];
  return current;
}

export function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** Deep copy of a JSON value. */
export function cloneJson<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** Whether the record carries a recurrence (a schedule other than a single ONCE execution). */
export function hasSchedule(record: PaymentRecord): boolean {
  return obj(at(record, 'paymentInstruction', 'schedule')) !== undefined;
}
