// Upstream prompts as the gateway offers them (issue 28), pure: which of a backend's prompts its
// `mcp.prompts.approve` lets through, the prompt as the caller's revision lists it (renamed with the
// backend's tool prefix, like its tools, so two upstreams' prompts never collide), and the check of a
// `prompts/get`'s arguments against the prompt's declared ones before the upstream is reached.
import { isPlainObject } from '../../shared/is-plain-object.js';
import { GatewayError } from '../errors.js';
import { pick } from './resources.js';

/** The longest argument value passed on (a prompt argument is a short string, not a document). */
export const MAX_ARGUMENT_LENGTH = 64 * 1024;

export function promptApproved(name: string, approve: 'all' | readonly string[]): boolean {
  return approve === 'all' || approve.includes(name);
}

const PROMPT_FIELDS = ['name', 'description', '_meta'];
const ARGUMENT_FIELDS = ['name', 'description', 'required'];

/** The upstream's prompt under its gateway name, shaped for the revision; undefined when unusable. */
export function shapePrompt(
  item: Readonly<Record<string, unknown>>,
  gatewayName: string,
  version: string,
): Record<string, unknown> | undefined {
  if (typeof item.name !== 'string' || item.name === '') return undefined;
  const args = declaredArguments(item);
  if (args === undefined) return undefined;
  const out = pick(item, PROMPT_FIELDS, version);
  out.name = gatewayName;
  if (Array.isArray(item.arguments))
    out.arguments = (item.arguments as Record<string, unknown>[]).map((a) =>
      pick(a, ARGUMENT_FIELDS, version),
    );
  return out;
}

export interface DeclaredArgument {
  readonly name: string;
  readonly required: boolean;
}

/** The prompt's declared arguments; undefined when its `arguments` is not a list of named objects. */
export function declaredArguments(
  item: Readonly<Record<string, unknown>>,
): DeclaredArgument[] | undefined {
  if (item.arguments === undefined) return [];
  if (!Array.isArray(item.arguments)) return undefined;
  const out: DeclaredArgument[] = [];
  for (const a of item.arguments) {
    if (!isPlainObject(a) || typeof a.name !== 'string') return undefined;
    out.push({ name: a.name, required: a.required === true });
  }
  return out;
}

/**
 * The `arguments` of a `prompts/get`, checked against the prompt's declared ones (MCP: a map of strings):
 * every value a string, every required one present, none the prompt does not declare. Throws
 * INVALID_PARAMS naming the argument; the upstream is not reached.
 */
export function checkPromptArguments(
  prompt: string,
  declared: readonly DeclaredArgument[],
  given: unknown,
): Record<string, string> {
  if (given === undefined) given = {};
  if (!isPlainObject(given))
    throw new GatewayError('INVALID_PARAMS', 'Invalid params: "arguments" must be an object', {
      prompt,
    });
  const known = new Set(declared.map((a) => a.name));
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(given)) {
    if (!known.has(name))
      throw new GatewayError(
        'INVALID_PARAMS',
        `Invalid params: prompt ${prompt} has no argument "${name.slice(0, 64)}"`,
        { prompt, argument: name.slice(0, 64) },
      );
    if (typeof value !== 'string')
      throw new GatewayError(
        'INVALID_PARAMS',
        `Invalid params: argument "${name}" of prompt ${prompt} must be a string`,
        { prompt, argument: name },
      );
    if (value.length > MAX_ARGUMENT_LENGTH)
      throw new GatewayError(
        'INVALID_PARAMS',
        `Invalid params: argument "${name}" of prompt ${prompt} is longer than ${MAX_ARGUMENT_LENGTH} characters`,
        { prompt, argument: name },
      );
    out[name] = value;
  }
  const missing = declared
    .filter((a) => a.required && out[a.name] === undefined)
    .map((a) => a.name);
  if (missing.length > 0)
    throw new GatewayError(
      'INVALID_PARAMS',
      `Invalid params: prompt ${prompt} requires the argument${missing.length > 1 ? 's' : ''} ${missing.map((m) => `"${m}"`).join(', ')}`,
      { prompt, missing },
    );
  return out;
}

/** The `messages` of a `prompts/get` answer: a list of objects with a role and a content object. */
export function promptMessages(result: Readonly<Record<string, unknown>>): unknown[] | undefined {
  const messages = result.messages;
  if (!Array.isArray(messages)) return undefined;
  const usable = messages.every(
    (m) =>
      isPlainObject(m) && (m.role === 'user' || m.role === 'assistant') && isPlainObject(m.content),
  );
  return usable ? messages : undefined;
}
