#!/usr/bin/env node
// `npm start`: builds what is served (the page, the widget bundles, the PDFs and the server) and
// runs the server in this process, so signals reach it directly.
import { pathToFileURL } from 'node:url';
import { exitOnVerificationError } from './build-clinical-verification.mjs';
import { buildAll } from './build.mjs';

const { serverFile } = await buildAll().catch(exitOnVerificationError);
await import(pathToFileURL(serverFile).href);
