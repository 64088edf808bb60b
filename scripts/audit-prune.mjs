#!/usr/bin/env node
// `npm run audit-prune [-- --dry-run]`: removes audit lines older than AUDIT_RETENTION_DAYS behind a signed
// summary (api/audit-prune.ts), run from the built server (scripts/run-built.mjs).
import { runBuilt } from './run-built.mjs';

await runBuilt('audit-prune');
