// oidc-provider ships no types (DefinitelyTyped's lag its releases): the part the tests' provider uses
// (api/test-support/oidc-provider.ts).
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  interface Account {
    accountId: string;
    claims(): Record<string, unknown> | Promise<Record<string, unknown>>;
  }
  interface Configuration {
    clients?: Record<string, unknown>[];
    jwks?: { keys: Record<string, unknown>[] };
    pkce?: { required?: () => boolean };
    conformIdTokenClaims?: boolean;
    claims?: Record<string, string[]>;
    findAccount?: (ctx: unknown, id: string) => Account | Promise<Account | undefined> | undefined;
    features?: Record<string, { enabled: boolean }>;
    ttl?: Record<string, number>;
    cookies?: { keys: string[] };
  }
  export default class Provider {
    constructor(issuer: string, configuration?: Configuration);
    callback(): (request: IncomingMessage, response: ServerResponse) => void;
  }
}
