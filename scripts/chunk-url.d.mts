import type { Plugin } from 'vite';

export function chunkUrl(): Plugin;
