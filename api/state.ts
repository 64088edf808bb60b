import type { ParameterizedContext } from 'koa';

/** Per-request state: set by `authenticate` when a valid, unrevoked token came with the request. */
export interface AppState {
  auth?: { userId: string; sessionId: string };
  /** The verified token claims, set by koa-jwt. */
  jwt?: unknown;
}
export type AppContext = ParameterizedContext<AppState>;
