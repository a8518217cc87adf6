// The scopes a verified token grants. Providers name the claim differently: `scope` as a space-separated
// string (RFC 9068, oidc-provider, Auth0, Keycloak), `scp` as a space-separated string (Microsoft Entra ID
// delegated tokens) or as an array (Okta). All of them count.
export function grantedScopes(claims: Readonly<Record<string, unknown>>): Set<string> {
  const granted = new Set<string>();
  for (const name of ['scope', 'scp']) {
    const value = claims[name];
    const items =
      typeof value === 'string'
        ? value.split(' ')
        : Array.isArray(value)
          ? value.filter((v): v is string => typeof v === 'string')
          : [];
    for (const item of items) if (item.length > 0) granted.add(item);
  }
  return granted;
}

/** The scopes of `required` the token lacks, in the order required lists them. */
export function missingScopes(
  required: readonly string[],
  claims: Readonly<Record<string, unknown>>,
): string[] {
  const granted = grantedScopes(claims);
  return required.filter((scope) => !granted.has(scope));
}
