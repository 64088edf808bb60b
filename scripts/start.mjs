#!/usr/bin/env node
// `npm start`: builds what is needed (today the server; the page and the widget bundles join with
// their issues) and runs the server in this process, so signals reach it directly.
import { pathToFileURL } from 'node:url';
import { buildServer } from './build-server.mjs';

const serverFile = await buildServer();
await import(pathToFileURL(serverFile).href);
