#!/usr/bin/env node
// `npm run restore -- --from FILE [--force]`: restores a backup made by `npm run backup` into an empty
// DATA_DIR or database (api/restore.ts), run from the built server (scripts/run-built.mjs).
import { runBuilt } from './run-built.mjs';

await runBuilt('restore');
