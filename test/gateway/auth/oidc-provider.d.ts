// Minimal typings for the parts of oidc-provider (v9, ships no types) the auth tests use.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';
  export default class Provider {
    constructor(
      issuer: string,
      configuration?: { jwks?: { keys: object[] } } & Record<string, unknown>,
    );
    callback(): (req: IncomingMessage, res: ServerResponse) => Promise<void> | void;
  }
}
