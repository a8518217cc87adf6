// Security class of an operation (spec: public / user-scoped / optional authentication).
import type { JsonObject, SecurityClass } from './types.js';
import { isPlainObject } from '../../shared/is-plain-object.js';

/** Names of the document's security schemes that are HTTP bearer schemes. */
export function bearerSchemes(document: JsonObject): Set<string> {
  const schemes = isPlainObject(document.components)
    ? document.components.securitySchemes
    : undefined;
  const found = new Set<string>();
  if (!isPlainObject(schemes)) return found;
  for (const [name, scheme] of Object.entries(schemes)) {
    if (
      isPlainObject(scheme) &&
      (scheme.type === 'http' || scheme.type === 'oauth2' || scheme.type === 'openIdConnect') &&
      (scheme.type !== 'http' || String(scheme.scheme).toLowerCase() === 'bearer')
    )
      found.add(name);
  }
  return found;
}

/** Header names of apiKey-in-header schemes: credentials the gateway must inject, never arguments. */
export function apiKeyHeaders(document: JsonObject): Map<string, string> {
  const schemes = isPlainObject(document.components)
    ? document.components.securitySchemes
    : undefined;
  const found = new Map<string, string>();
  if (!isPlainObject(schemes)) return found;
  for (const [name, scheme] of Object.entries(schemes)) {
    if (isPlainObject(scheme) && scheme.type === 'apiKey' && scheme.in === 'header')
      found.set(name, String(scheme.name));
  }
  return found;
}

/**
 * `x-toolgate-auth: optional` → optional. Otherwise the effective requirement list (operation, else
 * document): user-scoped when every alternative needs a bearer scheme; optional when some alternative
 * needs one and another does not (e.g. `{}`); public when none does.
 */
export function securityClassOf(
  operation: JsonObject,
  document: JsonObject,
  bearer: ReadonlySet<string>,
): SecurityClass {
  if (operation['x-toolgate-auth'] === 'optional') return 'optional';
  const requirements = Array.isArray(operation.security)
    ? operation.security
    : Array.isArray(document.security)
      ? document.security
      : [];
  const needsBearer = requirements.map(
    (req) => isPlainObject(req) && Object.keys(req).some((name) => bearer.has(name)),
  );
  if (needsBearer.length === 0 || needsBearer.every((b) => !b)) return 'public';
  return needsBearer.every((b) => b) ? 'user-scoped' : 'optional';
}

/** The apiKey header schemes an operation's effective requirements use. */
export function requiredApiKeyHeaders(
  operation: JsonObject,
  document: JsonObject,
  apiKeys: ReadonlyMap<string, string>,
): string[] {
  const requirements = Array.isArray(operation.security)
    ? operation.security
    : Array.isArray(document.security)
      ? document.security
      : [];
  const headers: string[] = [];
  for (const req of requirements) {
    if (!isPlainObject(req)) continue;
    for (const name of Object.keys(req)) {
      const header = apiKeys.get(name);
      if (header !== undefined) headers.push(header);
    }
  }
  return headers;
}

/**
 * The OAuth scopes an operation's requirements name for its OAuth 2 / OpenID Connect schemes. The
 * requirement list is a choice of alternatives, so the tool requires only the scopes every such
 * alternative names (their intersection; none when an alternative uses no OAuth scheme): a token that
 * satisfies any one alternative is never refused.
 */
export function requiredScopesOf(operation: JsonObject, document: JsonObject): string[] {
  const schemes = isPlainObject(document.components)
    ? document.components.securitySchemes
    : undefined;
  const oauth = new Set<string>();
  if (isPlainObject(schemes))
    for (const [name, scheme] of Object.entries(schemes))
      if (isPlainObject(scheme) && (scheme.type === 'oauth2' || scheme.type === 'openIdConnect'))
        oauth.add(name);
  const requirements = Array.isArray(operation.security)
    ? operation.security
    : Array.isArray(document.security)
      ? document.security
      : [];
  let common: Set<string> | undefined;
  for (const requirement of requirements) {
    if (!isPlainObject(requirement)) continue;
    const names = Object.keys(requirement).filter((name) => oauth.has(name));
    // An alternative without OAuth (anonymous `{}`, a plain bearer or key) asks for no scope.
    if (names.length === 0) return [];
    const scopes = new Set(
      names.flatMap((name) => {
        const listed = requirement[name];
        return Array.isArray(listed)
          ? listed.filter((s): s is string => typeof s === 'string')
          : [];
      }),
    );
    common = common === undefined ? scopes : new Set([...common].filter((s) => scopes.has(s)));
  }
  return [...(common ?? [])].sort();
}
