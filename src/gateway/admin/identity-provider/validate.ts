// Live validation of identity-provider settings before they are saved: the settings resolved exactly as
// the gateway resolves its configuration, then the keys obtained the way the gateway obtains them — the
// discovery document and the JWKS through the gateway's bounded fetch (HTTPS or loopback, no redirects,
// timeout, size cap), or the static keys parsed by the gateway's own loader — and a pasted sample token
// verified by a verifier built by createJwtVerifier, the gateway's own code path. Each problem names the
// field it is about.
import type { JWK } from 'jose';
import {
  resolveJwtConfig,
  type JwtConfig,
  type JwtConfigInput,
} from '../../../config/gateway-jwt.js';
import type { DeepReadonly } from '../../../config/schema.js';
import { AuthError } from '../../auth/jwt/errors.js';
import { fetchJson, type FetchFn } from '../../auth/jwt/fetch-json.js';
import { keyFitsAlg } from '../../auth/jwt/key-entry.js';
import { loadStaticKeys } from '../../auth/jwt/static-keys.js';
import { createJwtVerifier } from '../../auth/jwt/verify.js';
import { fieldProblem, type FieldInput, type FieldProblem } from '../errors.js';
import { jwtInputOf, type IdpSettings } from './settings.js';

export interface IdpKeyInfo {
  readonly kid?: string | undefined;
  readonly alg?: string | undefined;
  readonly kty: string;
  readonly crv?: string | undefined;
  /** Whether the gateway would use it (remote sets: asymmetric public keys only). */
  readonly usable: boolean;
}

export interface IdpValidationReport {
  readonly ok: boolean;
  readonly issuer?: string | undefined;
  /** The discovery document's jwks_uri, when the keys came from discovery. */
  readonly jwksUri?: string | undefined;
  readonly keys: readonly IdpKeyInfo[];
  readonly sampleToken?: {
    readonly ok: boolean;
    readonly subject?: string | undefined;
    readonly error?: string | undefined;
  };
  readonly problems: readonly FieldProblem[];
}

export interface IdpValidationDeps {
  /** The configuration file's `gateway.auth.jwt` (its tuning is kept under stored settings). */
  readonly file?: DeepReadonly<JwtConfigInput> | undefined;
  /** Token lifetime bound applied when none is configured (production). */
  readonly defaultMaxTokenLifetimeSeconds?: number | undefined;
  readonly fetch?: FetchFn | undefined;
  readonly clock?: (() => number) | undefined;
}

const ASYMMETRIC = new Set(['RSA', 'EC', 'OKP']);
const MAX_KEYS = 100;

/** Settings that match their schema (IdpSettingsSchema, checked at the route), checked live. */
export async function validateIdpSettings(
  input: { readonly settings: IdpSettings; readonly sampleToken?: string | undefined },
  deps: IdpValidationDeps = {},
): Promise<{ report: IdpValidationReport; config?: JwtConfig }> {
  const { settings } = input;
  const problems: FieldInput[] = [];
  if (settings.discoveryUrl !== undefined && settings.jwks !== undefined)
    problems.push({
      field: 'settings.jwks',
      message: 'give either discoveryUrl or jwks (static keys), not both',
    });
  let config: JwtConfig;
  try {
    config = resolveJwtConfig(jwtInputOf(settings, deps.file), deps.defaultMaxTokenLifetimeSeconds);
  } catch (error) {
    problems.push(configProblem(error));
    return { report: failed(problems, settings.issuer) };
  }
  const doFetch: FetchFn = deps.fetch ?? ((url, init) => fetch(url, init));
  let keys: IdpKeyInfo[] = [];
  let jwksUri: string | undefined;
  if (config.staticKeys.length > 0) {
    try {
      keys = loadStaticKeys(config.staticKeys).map((k) => ({
        kid: k.kid,
        alg: k.alg,
        kty: String(k.jwk.kty),
        crv: k.jwk.crv,
        usable: true,
      }));
    } catch (error) {
      problems.push(configProblem(error));
    }
  }
  if (config.discovery !== undefined) {
    const fetched = await discoveredKeys(config, doFetch, settings.discoveryUrl !== undefined);
    problems.push(...fetched.problems);
    keys = [...keys, ...fetched.keys];
    jwksUri = fetched.jwksUri;
  }
  const usable = keys.filter((k) => k.usable);
  if (problems.length === 0 && usable.length === 0)
    problems.push({
      field: settings.jwks ? 'settings.jwks' : keysField(settings),
      message: 'no usable signing key: the gateway would refuse every token',
    });
  else if (
    problems.length === 0 &&
    !usable.some((k) =>
      config.algorithms.some(
        (alg) =>
          (k.alg === undefined || k.alg === alg) &&
          keyFitsAlg({ kty: k.kty, ...(k.crv === undefined ? {} : { crv: k.crv }) }, alg),
      ),
    )
  )
    problems.push({
      field: 'settings.algorithms',
      message: `none of the keys can verify any of ${config.algorithms.join(', ')}`,
    });

  let sampleToken: IdpValidationReport['sampleToken'];
  if (input.sampleToken !== undefined) {
    sampleToken = await checkSample(config, input.sampleToken, doFetch, deps.clock);
    if (!sampleToken.ok)
      problems.push({ field: 'sampleToken', message: sampleToken.error ?? 'not accepted' });
  }
  return {
    report: {
      ok: problems.length === 0,
      issuer: config.issuer,
      ...(jwksUri === undefined ? {} : { jwksUri }),
      keys,
      ...(sampleToken === undefined ? {} : { sampleToken }),
      problems: problems.map((p) => fieldProblem(p, PROBLEM_CODE)),
    },
    config,
  };
}

/** The discovery document and its JWKS, fetched as the gateway fetches them. */
async function discoveredKeys(
  config: JwtConfig,
  doFetch: FetchFn,
  explicitUrl: boolean,
): Promise<{ keys: IdpKeyInfo[]; jwksUri?: string; problems: FieldInput[] }> {
  const discovery = config.discovery;
  if (discovery === undefined) return { keys: [], problems: [] };
  const field = explicitUrl ? 'settings.discoveryUrl' : 'settings.issuer';
  const options = {
    fetch: doFetch,
    timeoutMs: discovery.timeoutMs,
    maxBytes: discovery.maxResponseBytes,
  };
  let document: unknown;
  try {
    document = await fetchJson(discovery.url, 'discovery document', options);
  } catch (error) {
    return { keys: [], problems: [{ field, message: `${discovery.url}: ${reason(error)}` }] };
  }
  const { issuer, jwks_uri: jwksUri } = (document ?? {}) as {
    issuer?: unknown;
    jwks_uri?: unknown;
  };
  const problems: FieldInput[] = [];
  if (issuer !== config.issuer)
    problems.push({
      field: 'settings.issuer',
      message: `the discovery document names the issuer ${JSON.stringify(issuer)}, not ${JSON.stringify(config.issuer)}`,
    });
  if (typeof jwksUri !== 'string') {
    problems.push({ field, message: 'the discovery document has no "jwks_uri"' });
    return { keys: [], problems };
  }
  let jwks: unknown;
  try {
    jwks = await fetchJson(jwksUri, 'JWKS', options);
  } catch (error) {
    problems.push({ field, message: `${jwksUri}: ${reason(error)}` });
    return { keys: [], jwksUri, problems };
  }
  const list = (jwks as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(list)) {
    problems.push({ field, message: `${jwksUri}: the JWKS has no "keys" array` });
    return { keys: [], jwksUri, problems };
  }
  const keys = list.slice(0, MAX_KEYS).flatMap((raw): IdpKeyInfo[] => {
    if (typeof raw !== 'object' || raw === null) return [];
    const jwk = raw as JWK;
    const kty = typeof jwk.kty === 'string' ? jwk.kty : 'unknown';
    const hasPrivate = ['d', 'p', 'q'].some((m) => m in jwk);
    return [
      {
        kid: typeof jwk.kid === 'string' ? jwk.kid : undefined,
        alg: typeof jwk.alg === 'string' ? jwk.alg : undefined,
        kty,
        crv: typeof jwk.crv === 'string' ? jwk.crv : undefined,
        usable: ASYMMETRIC.has(kty) && !hasPrivate && (jwk.use === undefined || jwk.use === 'sig'),
      },
    ];
  });
  return { keys, jwksUri, problems };
}

async function checkSample(
  config: JwtConfig,
  token: string,
  doFetch: FetchFn,
  clock: (() => number) | undefined,
): Promise<{ ok: boolean; subject?: string; error?: string }> {
  const verifier = createJwtVerifier(config, {
    fetch: doFetch,
    ...(clock === undefined ? {} : { clock }),
  });
  try {
    const user = await verifier.verify(token.trim());
    return { ok: true, subject: user.subject };
  } catch (error) {
    return { ok: false, error: reason(error) };
  } finally {
    verifier.close();
  }
}

/** The code of a problem live validation finds (schema problems keep their own: REQUIRED, …). */
const PROBLEM_CODE = 'IDP_SETTINGS_INVALID';

/** A report of settings that cannot be used, with these problems. */
export function failed(problems: readonly FieldInput[], issuer?: string): IdpValidationReport {
  return {
    ok: false,
    ...(issuer === undefined ? {} : { issuer }),
    keys: [],
    problems: problems.map((p) => fieldProblem(p, PROBLEM_CODE)),
  };
}

function keysField(settings: IdpSettings): string {
  return settings.discoveryUrl !== undefined ? 'settings.discoveryUrl' : 'settings.issuer';
}

function reason(error: unknown): string {
  if (error instanceof AuthError) return `${error.code}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}

/** A configuration or key-loading error as a problem on the settings field it names. */
function configProblem(error: unknown): FieldInput {
  const message = error instanceof Error ? error.message : String(error);
  const match = /gateway\.auth\.jwt\.?([A-Za-z0-9_.]*)[^:]*:\s*(.*)$/.exec(message);
  const path = match?.[1] ?? '';
  const text = match?.[2] ?? message;
  const field = path.startsWith('staticKeys')
    ? `settings.jwks.keys${path.slice('staticKeys'.length).replace(/\.(jwk|pem)$/, '')}`
    : path.startsWith('discovery')
      ? 'settings.discoveryUrl'
      : path.startsWith('forwardClaims')
        ? 'settings.forwardClaims'
        : path === ''
          ? 'settings'
          : `settings.${path.split('.')[0] ?? ''}`;
  return { field, message: text };
}
