// The JSON body parser both services use in place of fastify's default. Two reasons: its errors name
// the problem precisely (where the JSON breaks, which property name is refused), and the refusal of
// prototype-poisoning keys is explicit rather than reported as "not valid JSON".
//
// `__proto__` and `constructor.prototype` are refused (400) instead of silently removed: removing
// them would store something other than what the client sent, and accepting them would let a body
// reach code that merges objects. A refusal the client can read is the only choice that loses nothing.

import { MAX_JSON_DEPTH, jsonNestingExceeds } from '../json-depth.js';

/** The error the parser raises; fastify's error handler turns it into a 400 problem. */
export class JsonBodyError extends Error {
  readonly statusCode = 400;
  constructor(
    readonly code: 'INVALID_JSON' | 'FORBIDDEN_PROPERTY_NAME' | 'JSON_TOO_DEEP',
    message: string,
    /** JSON pointer to the refused property (FORBIDDEN_PROPERTY_NAME only). */
    readonly pointer?: string,
  ) {
    super(message);
    this.name = 'JsonBodyError';
  }
}

/** Parses a request body as JSON, refusing empty bodies, syntax errors and prototype-poisoning keys. */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === '') {
    throw new JsonBodyError(
      'INVALID_JSON',
      'the body is empty but Content-Type is application/json',
    );
  }
  if (jsonNestingExceeds(text)) {
    throw new JsonBodyError(
      'JSON_TOO_DEEP',
      `the body nests objects or arrays deeper than ${MAX_JSON_DEPTH} levels`,
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (error) {
    const reason = error instanceof SyntaxError ? error.message : 'unparseable';
    throw new JsonBodyError('INVALID_JSON', `the body is not valid JSON: ${reason.slice(0, 200)}`);
  }
  const refused = findForbiddenProperty(value);
  if (refused !== undefined) {
    throw new JsonBodyError(
      'FORBIDDEN_PROPERTY_NAME',
      `property name "${refused.name}" is not allowed (at ${refused.pointer || '/'})`,
      refused.pointer,
    );
  }
  return value;
}

interface Refused {
  readonly name: string;
  readonly pointer: string;
}

/** Iterative walk (no recursion limit to exhaust on deeply nested bodies). */
function findForbiddenProperty(root: unknown): Refused | undefined {
  const stack: { value: unknown; pointer: string }[] = [{ value: root, pointer: '' }];
  while (stack.length > 0) {
    const { value, pointer } = stack.pop() as { value: unknown; pointer: string };
    if (value === null || typeof value !== 'object') continue;
    if (Array.isArray(value)) {
      value.forEach((item, index) => stack.push({ value: item, pointer: `${pointer}/${index}` }));
      continue;
    }
    const object = value as Record<string, unknown>;
    if (Object.prototype.hasOwnProperty.call(object, '__proto__')) {
      return { name: '__proto__', pointer: `${pointer}/__proto__` };
    }
    const ctor = Object.prototype.hasOwnProperty.call(object, 'constructor')
      ? object['constructor']
      : undefined;
    if (
      ctor !== null &&
      typeof ctor === 'object' &&
      Object.prototype.hasOwnProperty.call(ctor, 'prototype')
    ) {
      return { name: 'constructor.prototype', pointer: `${pointer}/constructor/prototype` };
    }
    for (const [key, child] of Object.entries(object)) {
      stack.push({ value: child, pointer: `${pointer}/${escapePointer(key)}` });
    }
  }
  return undefined;
}

function escapePointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}
