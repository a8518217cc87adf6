// The one Ajv setup of the package: every JSON Schema validator (configuration, admin requests, tool
// arguments, payment requests, catalogue overrides) is an instance made here, so they agree on formats
// (ajv-formats, plus OpenAPI's own format names as annotations), strictness and error reporting. Callers
// choose only what differs by purpose: the dialect, coercion of query strings, defaults, and whether
// every error is reported.
import { Ajv, type Options } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type * as core from 'ajv/dist/core.js';

/** What every dialect's Ajv is. */
export type AjvCore = core.default;
import formatsModule from 'ajv-formats';

type FormatsPlugin = (ajv: AjvCore) => AjvCore;
// ajv-formats is CommonJS: its default export arrives wrapped or not, depending on the loader.
const addFormats: FormatsPlugin =
  (formatsModule as unknown as { default?: FormatsPlugin }).default ??
  (formatsModule as unknown as FormatsPlugin);

/** OpenAPI format names JSON Schema does not define: accepted as annotations, never checked. */
const OPENAPI_FORMATS = ['int32', 'int64', 'float', 'double', 'byte', 'binary', 'password'];

export interface AjvOptions {
  /** `draft-07` (TypeBox schemas: configuration, admin API) or `2020-12` (OpenAPI 3.1 documents). */
  readonly dialect?: 'draft-07' | '2020-12';
  /** Report every problem (default) or stop at the first. */
  readonly allErrors?: boolean;
  /** Coerce strings to the declared scalar types (query strings, path parameters). Default false. */
  readonly coerceTypes?: boolean;
  /** Fill `default` values into the validated value. Default false. */
  readonly useDefaults?: boolean;
  /** Check each schema against its meta-schema when compiling (default true; off for foreign documents). */
  readonly validateSchema?: boolean;
}

export function createAjv(options: AjvOptions = {}): AjvCore {
  const settings: Options = {
    allErrors: options.allErrors ?? true,
    strict: false,
    coerceTypes: options.coerceTypes ?? false,
    useDefaults: options.useDefaults ?? false,
    validateSchema: options.validateSchema ?? true,
    // Errors carry their schema and parent schema, so field problems can name allowed values.
    verbose: true,
    logger: false,
  };
  const ajv = options.dialect === '2020-12' ? new Ajv2020(settings) : new Ajv(settings);
  addFormats(ajv);
  for (const format of OPENAPI_FORMATS) ajv.addFormat(format, true);
  return ajv;
}
