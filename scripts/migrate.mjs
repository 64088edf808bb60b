#!/usr/bin/env node
// `npm run migrate`: brings the database of DATABASE_URL (or DATABASE_URL_FILE) to this release's schema
// (api/migrate.ts), run from the built server (scripts/run-built.mjs).
import { runBuilt } from './run-built.mjs';

await runBuilt('migrate');
