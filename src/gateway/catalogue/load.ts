// Reads each backend's OpenAPI document (file or URL), dereferences it and builds the catalogue; for the
// operator's views, adds the upstream MCP servers' tools as they list them now.
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { request } from 'undici';
import { pino } from 'pino';
import { parse as parseYaml } from 'yaml';
import type { BackendConfig } from '../../config/gateway-mcp.js';
import { packageRoot } from '../../shared/package-root.js';
import { GatewayError } from '../errors.js';
import type { Logger } from '../../shared/log/logger.js';
import {
  openFederation,
  type ConfiguredBackend,
  type UpstreamOpener,
} from '../federation/federation.js';
import { buildCatalogue, catalogueOf } from './build.js';
import { applyOverrides, type BackendOverrides } from './overrides.js';
import type { BackendDocument, Catalogue, JsonObject } from './types.js';

const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;

type Backend = Readonly<Pick<BackendConfig, 'name' | 'openapi'>> & {
  readonly injectHeaders: Readonly<Record<string, string>>;
  readonly tools?: BackendOverrides | undefined;
};

export async function loadCatalogue(backends: readonly Backend[]): Promise<Catalogue> {
  const documents: BackendDocument[] = [];
  for (const backend of backends) {
    // Upstream MCP servers (`mcp`) list their tools themselves (gateway/federation).
    if (backend.openapi === undefined) continue;
    documents.push({
      backend: backend.name,
      document: await loadDocument(backend),
      injectedHeaders: Object.keys(backend.injectHeaders),
    });
  }
  return applyOverrides(
    buildCatalogue(documents),
    new Map(backends.map((b) => [b.name, b.tools ?? {}])),
  );
}

export async function loadDocument(backend: Backend): Promise<JsonObject> {
  const source = backend.openapi;
  try {
    if (source === undefined) throw new Error('the backend is an MCP server, not an OpenAPI API');
    const parsed =
      'file' in source
        ? parseText(readFileSync(resolveDocumentPath(source.file), 'utf8'), source.file)
        : await fetchDocument(source.url);
    const version = String(parsed.openapi ?? '');
    if (!/^3\.[01]\.\d+/.test(version))
      throw new Error(`only OpenAPI 3.0 and 3.1 are supported (found "${version || 'none'}")`);
    const base = 'file' in source ? resolveDocumentPath(source.file) : source.url;
    // Checked against the OpenAPI schema of its version before anything is built from it: a document
    // whose `paths` is not a map (42, null, []) is refused, not read as a backend without operations.
    const api = await SwaggerParser.validate(base, parsed as never, {
      resolve: { external: 'file' in source, http: false },
      dereference: { circular: true },
      validate: { schema: true, spec: false },
    });
    return api as unknown as JsonObject;
  } catch (error) {
    throw new GatewayError(
      'CATALOGUE_LOAD_FAILED',
      `backend ${backend.name}: cannot load its OpenAPI document: ${reasonOf(error)}`,
    );
  }
}

/** The first line of a load error; a schema violation as up to three `pointer problem` findings. */
function reasonOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const [first = '', ...rest] = error.message.split('\n');
  if (!first.startsWith('Swagger schema validation failed')) return first;
  const findings = [...new Set(rest.map((line) => line.trim().replace(/^#/, '')).filter(Boolean))];
  const shown = findings.slice(0, 3).join('; ');
  const more = findings.length > 3 ? ` (and ${findings.length - 3} more)` : '';
  return `the document does not follow the OpenAPI schema: ${shown}${more}`;
}

/** Relative paths resolve against the working directory, then against the package root. */
export function resolveDocumentPath(file: string): string {
  if (isAbsolute(file)) return file;
  const fromCwd = resolve(process.cwd(), file);
  if (existsSync(fromCwd)) return fromCwd;
  return join(packageRoot(), file);
}

function parseText(text: string, name: string): JsonObject {
  const value: unknown = name.endsWith('.json') ? JSON.parse(text) : parseYaml(text);
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new Error('the document is not an object');
  return value as JsonObject;
}

async function fetchDocument(url: string): Promise<JsonObject> {
  const response = await request(url, {
    headersTimeout: 10000,
    bodyTimeout: 10000,
    signal: AbortSignal.timeout(15000),
  });
  if (response.statusCode !== 200) {
    await response.body.dump();
    throw new Error(`HTTP ${response.statusCode}`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += (chunk as Buffer).length;
    if (size > MAX_DOCUMENT_BYTES) throw new Error('document larger than 10 MiB');
    chunks.push(chunk as Buffer);
  }
  const type = String(response.headers['content-type'] ?? '');
  return parseText(Buffer.concat(chunks).toString('utf8'), type.includes('json') ? 'x.json' : url);
}

/** An upstream MCP server's list as `toolgate tools` and the admin plane saw it (federation). */
export interface UpstreamListing {
  readonly backend: string;
  readonly state: 'ok' | 'down' | 'loading';
  readonly tools: number;
  readonly reason?: string | undefined;
}

/**
 * The catalogue as the operator sees it (`toolgate tools`, the admin API and portal): the OpenAPI tools
 * and every upstream MCP server's tools, each upstream's list loaded once now with its client. An upstream
 * that is down or does not answer within its `timeouts.totalMs` is reported in `upstreams`, not fatal; an
 * upstream tool named as another backend's tool is refused, as the gateway's start refuses it.
 */
export async function loadOperatorCatalogue<B extends Backend & ConfiguredBackend>(
  backends: readonly B[],
  openUpstreams: UpstreamOpener<B>,
  logger: Logger = pino({ level: 'silent' }),
): Promise<{ catalogue: Catalogue; upstreams: readonly UpstreamListing[] }> {
  const openapi = await loadCatalogue(backends);
  const federation = await openFederation({
    backends,
    logger,
    openUpstreams,
    reserved: () => openapi.byName,
  });
  if (!federation) return { catalogue: openapi, upstreams: [] };
  try {
    const upstreams = federation.tools.status().map((s) => ({
      backend: s.backend,
      state: s.state,
      tools: s.tools,
      reason: s.state === 'loading' ? 'no answer within its timeouts.totalMs' : s.reason,
    }));
    return {
      catalogue: catalogueOf([...openapi.tools, ...federation.tools.tools()], openapi.warnings),
      upstreams,
    };
  } finally {
    await federation.close();
  }
}
