// A TypeBox string enum as one JSON Schema `enum`: one clear error ("must be one of …"), where a union of
// literals reports one per branch.
import { Type } from '@sinclair/typebox';

export function stringEnum<const T extends readonly string[]>(
  values: T,
  options: Record<string, unknown> = {},
) {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}
