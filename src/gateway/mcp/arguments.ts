// Tool arguments checked against the tool's inputSchema (JSON Schema 2020-12), each validator compiled once
// on first use and cached. Failures name the argument and the rule so the model can correct itself.
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';
import type { Tool } from '../catalogue/types.js';

type FormatsPlugin = (ajv: Ajv2020) => Ajv2020;
const addFormats: FormatsPlugin =
  (formatsModule as unknown as { default?: FormatsPlugin }).default ??
  (formatsModule as unknown as FormatsPlugin);

// OpenAPI format names that JSON Schema does not define: accepted as annotations.
const OPENAPI_FORMATS = ['int32', 'int64', 'float', 'double', 'byte', 'binary', 'password'];

export class ArgumentValidator {
  private readonly ajv: Ajv2020;
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly compiledOutput = new Map<string, ValidateFunction>();

  constructor() {
    this.ajv = new Ajv2020({
      allErrors: true,
      strict: false,
      logger: false,
      validateSchema: false,
    });
    addFormats(this.ajv);
    for (const f of OPENAPI_FORMATS) this.ajv.addFormat(f, true);
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
