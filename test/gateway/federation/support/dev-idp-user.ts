// A user's access token from the development authorization server, the way an MCP client gets one: open
// registration of a public client, authorization code with PKCE and the gateway's MCP URL as resource
// (RFC 8707), the sign-in done by autoLogin (followToCallback plays the browser), the code exchanged.
import { createHash, randomBytes } from 'node:crypto';
import { followToCallback, REDIRECT_URI } from '../../../helpers/oauth-client.js';

export interface DevIdpMetadata {
  readonly issuer: string;
  readonly authorization_endpoint: string;
  readonly token_endpoint: string;
  readonly jwks_uri: string;
  readonly revocation_endpoint: string;
  readonly registration_endpoint: string;
}

export interface UserTokens {
  readonly accessToken: string;
  readonly refreshToken?: string | undefined;
  readonly clientId: string;
}

export async function devIdpMetadata(gatewayUrl: string): Promise<DevIdpMetadata> {
  const response = await fetch(`${gatewayUrl}/dev-idp/.well-known/openid-configuration`);
  if (response.status !== 200) throw new Error(`discovery answered ${response.status}`);
  return (await response.json()) as DevIdpMetadata;
}

/** Signs the autoLogin user in for `resource` with `scope`; their tokens. */
export async function signInUser(
  metadata: DevIdpMetadata,
  resource: string,
  scope: string,
): Promise<UserTokens> {
  const registered = await fetch(metadata.registration_endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: 'token exchange test client',
      redirect_uris: [REDIRECT_URI],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    }),
  });
  if (registered.status !== 201) throw new Error(`registration: ${await registered.text()}`);
  const { client_id: clientId } = (await registered.json()) as { client_id: string };
  const verifier = randomBytes(32).toString('base64url');
  const authorize = new URL(metadata.authorization_endpoint);
  for (const [name, value] of Object.entries({
    client_id: clientId,
    redirect_uri: REDIRECT_URI,
    response_type: 'code',
    scope,
    resource,
    state: randomBytes(8).toString('hex'),
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  }))
    authorize.searchParams.set(name, value);
  const callback = await followToCallback(authorize, REDIRECT_URI);
  const code = callback.get('code');
  if (code === null) throw new Error(`no code: ${callback.toString()}`);
  const answer = await fetch(metadata.token_endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      client_id: clientId,
      code_verifier: verifier,
      resource,
    }).toString(),
  });
  const tokens = (await answer.json()) as { access_token?: string; refresh_token?: string };
  if (answer.status !== 200 || tokens.access_token === undefined)
    throw new Error(`code exchange: ${JSON.stringify(tokens)}`);
  return { accessToken: tokens.access_token, refreshToken: tokens.refresh_token, clientId };
}
