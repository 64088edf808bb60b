#!/usr/bin/env node
// `npm run audit-verify`: checks the audit trail's hash chain of DATA_DIR, or of the database of
// DATABASE_URL (api/audit-verify.ts), run from the built server (scripts/run-built.mjs).
import { runBuilt } from './run-built.mjs';

await runBuilt('audit-verify');
