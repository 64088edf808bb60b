#!/usr/bin/env node
// `npm run migrate-data -- --from ./data --to postgres://…`: copies an embedded DATA_DIR into PostgreSQL
// (api/migrate-data.ts), run from the built server (scripts/run-built.mjs).
import { runBuilt } from './run-built.mjs';

await runBuilt('migrate-data');
