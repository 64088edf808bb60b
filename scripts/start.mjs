#!/usr/bin/env node
// `npm start`: builds what the front end needs and runs the server. The server (api/) and the
// front end (widgets/, host/) are built by later issues; until then this says so and exits.
console.error(
  [
    'Nothing to serve yet: the API server and the page are not built.',
    'What exists today is the clinical core (clinical/) and its tests: run `npm test`.',
  ].join('\n'),
);
process.exit(1);
