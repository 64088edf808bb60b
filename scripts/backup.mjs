#!/usr/bin/env node
// `npm run backup -- --out FILE`: a consistent backup of DATA_DIR, or of the database of DATABASE_URL,
// taken while the server runs (api/backup.ts), run from the built server (scripts/run-built.mjs).
import { runBuilt } from './run-built.mjs';

await runBuilt('backup');
