// Escaping by construction: every value interpolated into an `html` template is escaped unless it is
// already `Html` (built by another `html` template or explicitly marked with `trusted`). Pages are
// composed only from these values, so hostile input (an application named `<script>…`) prints as text.

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};

/** A fragment of markup that is safe to emit as is. */
export class Html {
  readonly #text: string;
  constructor(text: string) {
    this.#text = text;
  }
  toString(): string {
    return this.#text;
  }
}

/** What may be interpolated: text (escaped), numbers, markup, lists of these; null/undefined/false print nothing. */
export type Interpolation =
  Html | string | number | bigint | boolean | null | undefined | readonly Interpolation[];

export function escapeText(value: string): string {
  return value.replace(/[&<>"'`]/g, (c) => ESCAPES[c] ?? c);
}

function render(value: Interpolation): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof Html) return value.toString();
  if (Array.isArray(value)) return value.map((v: Interpolation) => render(v)).join('');
  return escapeText(String(value));
}

/** The tagged template: `html\`<p>${name}</p>\`` escapes `name`. */
export function html(strings: TemplateStringsArray, ...values: readonly Interpolation[]): Html {
  let out = strings[0] ?? '';
  values.forEach((value, i) => {
    out += render(value) + (strings[i + 1] ?? '');
  });
  return new Html(out);
}

/**
 * Marks a constant string as markup. Only for text written in this code base (never for input); the
 * name says what the caller vouches for.
 */
export function trusted(markup: string): Html {
  return new Html(markup);
}
