// Minimal typings for the parts of oidc-provider (v9, which ships no types) that the development
// authorization server (src/gateway/auth/dev-idp/) and the tests use. Configuration is typed loosely:
// oidc-provider validates it itself at construction.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export interface InteractionDetails {
    readonly uid: string;
    readonly prompt: {
      readonly name: 'login' | 'consent' | string;
      readonly reasons: readonly string[];
      readonly details: {
        readonly missingOIDCScope?: readonly string[];
        readonly missingOIDCClaims?: readonly string[];
        readonly missingResourceScopes?: Readonly<Record<string, readonly string[]>>;
      };
    };
    readonly params: Readonly<Record<string, unknown>>;
    readonly session?: { readonly accountId: string } | undefined;
    readonly grantId?: string | undefined;
  }

  export interface GrantInstance {
    addOIDCScope(scope: string): void;
    addResourceScope(resource: string, scope: string): void;
    save(): Promise<string>;
  }

  export interface GrantModel {
    new (properties: { accountId: string; clientId: string }): GrantInstance;
    find(id: string): Promise<GrantInstance | undefined>;
  }

  export interface InteractionResult {
    login?: { accountId: string; remember?: boolean };
    consent?: { grantId: string };
    error?: string;
    error_description?: string;
  }

  export interface ProviderClient {
    readonly clientId: string;
    readonly clientName?: string;
    grantTypeAllowed(type: string): boolean;
  }

  export const errors: {
    InvalidTarget: new (description?: string) => Error;
    InvalidRequest: new (description?: string) => Error;
    InvalidScope: new (description?: string) => Error;
    UnauthorizedClient: new (description?: string) => Error;
    /** An OAuth error with this code and error_description (e.g. invalid_grant with a reason). */
    CustomOIDCProviderError: new (error: string, description: string) => Error;
    /** `invalid_redirect_uri` when the description starts with "redirect_uris", else invalid_client_metadata. */
    InvalidClientMetadata: new (description: string) => Error;
  };

  /** The token endpoint's request context, as a grant type handler sees it (registerGrantType). */
  export interface TokenRequestContext {
    oidc: {
      readonly params: Readonly<Record<string, unknown>>;
      readonly client?: ProviderClient | undefined;
      entity(kind: string, value: unknown): void;
    };
    body: unknown;
  }

  /** An access token to issue; `resourceServer` decides its audience and format (JWT here). */
  export interface AccessTokenInstance {
    save(): Promise<string>;
  }

  export interface AccessTokenModel {
    new (properties: {
      accountId: string;
      client: ProviderClient;
      gty: string;
      scope?: string | undefined;
      expiresIn: number;
      resourceServer: {
        audience: string;
        identifier(): string;
        scope: string;
        accessTokenFormat: 'jwt';
        accessTokenTTL: number;
        jwt: { sign: { alg: string } };
      };
    }): AccessTokenInstance;
  }

  export default class Provider {
    constructor(
      issuer: string,
      configuration?: { jwks?: { keys: object[] } } & Record<string, unknown>,
    );
    proxy: boolean;
    readonly issuer: string;
    readonly Grant: GrantModel;
    readonly Client: { find(id: string): Promise<ProviderClient | undefined> };
    readonly AccessToken: AccessTokenModel;
    registerGrantType(
      name: string,
      handler: (ctx: TokenRequestContext) => Promise<void>,
      parameters?: readonly string[],
    ): void;
    callback(): (req: IncomingMessage, res: ServerResponse) => Promise<void> | void;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>;
    interactionResult(
      req: IncomingMessage,
      res: ServerResponse,
      result: InteractionResult,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<string>;
    on(event: string, listener: (...args: unknown[]) => void): this;
  }
}
