// How a page shows an admin-plane refusal: validation failures go next to their fields (by field name),
// anything else becomes the page's alert. Never a stack trace.
import { AdminError } from '../../admin/errors.js';

export interface Refusal {
  readonly alert: string;
  readonly fields: Readonly<Record<string, string>>;
}

/** The refusal for a known admin-plane error; rethrows anything else (the app answers 500 without detail). */
export function refusalOf(error: unknown): Refusal {
  if (!(error instanceof AdminError)) throw error;
  const fields: Record<string, string> = {};
  // `tools.2` belongs to the field `tools`.
  for (const problem of error.fields)
    fields[problem.field.replace(/\.\d+$/, '')] ??= problem.message;
  return {
    alert:
      error.fields.length > 0
        ? `Please correct: ${error.fields.map((f) => (f.field ? `${f.field}: ${f.message}` : f.message)).join('; ')}`
        : error.message,
    fields,
  };
}
