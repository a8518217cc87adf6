// The nesting bound for JSON that crosses a network: request bodies of both services and backend
// responses. V8 parses deep JSON fine, but the code after the parse — JSON.stringify, schema validation,
// structured logging — recurses, and a 10,000-deep object overflowed the stack there. Refusing deep
// documents before parsing keeps that failure out of every later stage.

/** Objects and arrays nested deeper than this are refused (a payment record needs fewer than 8). */
export const MAX_JSON_DEPTH = 64;

/**
 * True when `text` nests objects/arrays deeper than `max`. Syntax is not checked here (the parser does
 * that). No allocation. The depth can never exceed the number of opening brackets, so a text holding at
 * most `max` of them (nearly every real body) is answered by counting them with `indexOf`, which skips
 * the characters between them natively; only a text with more is walked character by character, brackets
 * inside strings ignored.
 */
export function jsonNestingExceeds(text: string, max: number = MAX_JSON_DEPTH): boolean {
  if (openersAtMost(text, max)) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/** Whether `text` holds at most `max` `{` and `[` together (counting stops once it has more). */
function openersAtMost(text: string, max: number): boolean {
  let count = 0;
  for (const opener of ['{', '[']) {
    let at = text.indexOf(opener);
    while (at !== -1) {
      if (++count > max) return false;
      at = text.indexOf(opener, at + 1);
    }
  }
  return true;
}
