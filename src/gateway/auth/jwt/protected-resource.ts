// OAuth 2.0 Protected Resource Metadata (RFC 9728): the document and its well-known URLs.

export interface ProtectedResourceMetadataInput {
  /** The resource identifier, e.g. the MCP endpoint URL `https://gw.example/mcp`. */
  resource: string;
  /** Issuer of the tokens the resource accepts. */
  issuer: string;
  resourceName?: string;
  jwksUri?: string;
  scopesSupported?: string[];
  documentationUrl?: string;
}

export interface ProtectedResourceMetadata {
  resource: string;
  authorization_servers: string[];
  bearer_methods_supported: ['header'];
  resource_name?: string;
  jwks_uri?: string;
  scopes_supported?: string[];
  resource_documentation?: string;
}

export function buildProtectedResourceMetadata(
  input: ProtectedResourceMetadataInput,
): ProtectedResourceMetadata {
  const doc: ProtectedResourceMetadata = {
    resource: input.resource,
    authorization_servers: [input.issuer],
    bearer_methods_supported: ['header'],
  };
  if (input.resourceName !== undefined) doc.resource_name = input.resourceName;
  if (input.jwksUri !== undefined) doc.jwks_uri = input.jwksUri;
  if (input.scopesSupported !== undefined) doc.scopes_supported = [...input.scopesSupported];
  if (input.documentationUrl !== undefined) doc.resource_documentation = input.documentationUrl;
  return doc;
}

export const PROTECTED_RESOURCE_WELL_KNOWN = '/.well-known/oauth-protected-resource';

/**
 * RFC 9728 §3.1: the well-known segment goes between the host and the resource's path.
 * For `https://gw.example/mcp`: pathSuffixed = `https://gw.example/.well-known/oauth-protected-resource/mcp`
 * and root = `https://gw.example/.well-known/oauth-protected-resource`.
 * The route paths to register are the same without the origin.
 */
export function protectedResourceMetadataUrls(resourceUrl: string): {
  pathSuffixed: string;
  root: string;
  routes: string[];
} {
  const url = new URL(resourceUrl);
  const path = url.pathname.replace(/\/+$/, '');
  const root = `${url.origin}${PROTECTED_RESOURCE_WELL_KNOWN}`;
  const pathSuffixed = `${root}${path}`;
  const routes = [
    ...new Set([`${PROTECTED_RESOURCE_WELL_KNOWN}${path}`, PROTECTED_RESOURCE_WELL_KNOWN]),
  ];
  return { pathSuffixed, root, routes };
}
