// Tool arguments checked against the tool's inputSchema (JSON Schema 2020-12), each validator compiled once
// on first use and cached. Failures name the argument and the rule so the model can correct itself.
//
// Validators are cached by the schema, not by the tool's name: a catalogue reload or an upstream MCP server's
// new tool list (issue 28) replaces a tool's schema under the same name, and the call must be checked against
// the schema served now. The schema object is the fast key; its JSON text dedupes compiling, so a list that
// is fetched again unchanged (new objects, same text) compiles nothing and Ajv's own cache does not grow.
import type { ErrorObject, ValidateFunction } from 'ajv';
import { createAjv, type AjvCore } from '../../shared/json-schema/ajv.js';
import type { Tool } from '../catalogue/types.js';

export class ArgumentValidator {
  private readonly ajv: AjvCore;
  private readonly bySchema = new WeakMap<object, ValidateFunction>();
  private readonly byText = new Map<string, ValidateFunction>();

  constructor() {
    this.ajv = createAjv({ dialect: '2020-12', validateSchema: false });
  }

  /** Returns undefined when valid, otherwise one readable line per problem. */
  validate(tool: Tool, args: unknown): string[] | undefined {
    const check = this.validatorOf(tool.inputSchema);
    if (check(args)) return undefined;
    return (check.errors ?? []).slice(0, 10).map((e) => describe(e, 'arguments', 'argument'));
  }

  /** Checks a structured result against the tool's outputSchema (MCP: results MUST conform). */
  validateOutput(tool: Tool, value: unknown): string[] | undefined {
    if (!tool.outputSchema) return undefined;
    const check = this.validatorOf(tool.outputSchema);
    if (check(value)) return undefined;
    return (check.errors ?? []).slice(0, 5).map((e) => describe(e, 'response', 'field'));
  }

  private validatorOf(schema: Record<string, unknown>): ValidateFunction {
    let check = this.bySchema.get(schema);
    if (check) return check;
    const text = JSON.stringify(schema);
    check = this.byText.get(text);
    if (!check) {
      check = this.ajv.compile(schema);
      this.byText.set(text, check);
    }
    this.bySchema.set(schema, check);
    return check;
  }
}

function describe(error: ErrorObject, root: string, item: string): string {
  const where = error.instancePath === '' ? root : `${item} ${pointerToPath(error.instancePath)}`;
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return `${where}: missing required property "${String(params.missingProperty)}" (rule: required)`;
    case 'additionalProperties':
      return `${where}: unknown property "${String(params.additionalProperty)}" (rule: additionalProperties)`;
    case 'enum':
      return `${where}: must be one of ${JSON.stringify(params.allowedValues)} (rule: enum)`;
    default:
      return `${where}: ${error.message ?? 'is invalid'} (rule: ${error.keyword})`;
  }
}

function pointerToPath(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((p, i) => (/^\d+$/.test(p) ? `[${p}]` : i === 0 ? p : `.${p}`))
    .join('');
}
