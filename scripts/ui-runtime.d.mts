import type { AliasOptions } from 'vite';

export type UiRuntime = 'preact' | 'react';
export const UI_RUNTIMES: UiRuntime[];
export const DEFAULT_UI_RUNTIME: UiRuntime;
export function uiRuntime(value: string | undefined): UiRuntime;
export function widgetsRuntime(): UiRuntime;
export function hostRuntime(): UiRuntime;
export const PREACT_ALIASES: { find: RegExp; replacement: string }[];
export function resolveFor(runtime: UiRuntime): { alias?: AliasOptions };
export function domTestOptions(runtime: UiRuntime): {
  resolve: { conditions?: string[]; alias?: AliasOptions };
  deps: { inline?: true };
};
