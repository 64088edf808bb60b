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
    extraParams?: string[];
    enabledJWA?: Record<string, string[]>;
    scopes?: string[];
  }
  /** The Koa context a provider's middleware sees (only what the tests' SMART EHR reads and writes). */
  interface ProviderContext {
    method: string;
    path: string;
    querystring: string;
    status: number;
    body: unknown;
    oidc: unknown;
    /** The node request (the SMART EHR reads a token request's body before the provider does). */
    req: IncomingMessage;
    request: { body?: unknown };
    get(field: string): string;
    redirect(url: string): void;
  }
  export default class Provider {
    constructor(issuer: string, configuration?: Configuration);
    callback(): (request: IncomingMessage, response: ServerResponse) => void;
    use(middleware: (ctx: ProviderContext, next: () => Promise<void>) => Promise<void>): void;
    AccessToken: { find(value: string): Promise<unknown> };
  }
}
