// Tool arguments checked against the tool's inputSchema (JSON Schema 2020-12), each validator compiled once
// on first use and cached. Failures name the argument and the rule so the model can correct itself.
import type { ErrorObject, ValidateFunction } from 'ajv';
import { createAjv, type AjvCore } from '../../shared/json-schema/ajv.js';
import type { Tool } from '../catalogue/types.js';

export class ArgumentValidator {
  private readonly ajv: AjvCore;
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly compiledOutput = new Map<string, ValidateFunction>();

  constructor() {
    this.ajv = createAjv({ dialect: '2020-12', validateSchema: false });
  }

  /** Returns undefined when valid, otherwise one readable line per problem. */
  validate(tool: Tool, args: unknown): string[] | undefined {
    let check = this.compiled.get(tool.name);
    if (!check) {
      check = this.ajv.compile(tool.inputSchema);
      this.compiled.set(tool.name, check);
    }
    if (check(args)) return undefined;
    return (check.errors ?? []).slice(0, 10).map((e) => describe(e, 'arguments', 'argument'));
  }

  /** Checks a structured result against the tool's outputSchema (MCP: results MUST conform). */
  validateOutput(tool: Tool, value: unknown): string[] | undefined {
    if (!tool.outputSchema) return undefined;
    let check = this.compiledOutput.get(tool.name);
    if (!check) {
      check = this.ajv.compile(tool.outputSchema);
      this.compiledOutput.set(tool.name, check);
    }
    if (check(value)) return undefined;
    return (check.errors ?? []).slice(0, 5).map((e) => describe(e, 'response', 'field'));
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
