import { readFileSync } from 'node:fs';
import { version } from 'react';
import { describe, expect, it } from 'vitest';
import { renderWidget } from './test-utils.tsx';

// The jsdom tests run twice, on each UI runtime the release ships (vitest.config.ts: `dom` on Preact, `dom-react`
// on React; scripts/ui-runtime.mjs). Each run checks it renders with the runtime its project names: a React leg
// quietly resolved to preact/compat (or the reverse) would test one runtime twice and the other never.
const runtime = process.env.SGX_WIDGETS_RUNTIME;
const reactVersion = (JSON.parse(readFileSync('node_modules/react/package.json', 'utf8')) as { version: string })
  .version;

/** Whether React itself rendered the node: React DOM keeps its fiber on the node under a `__reactFiber$…` key. */
const renderedByReact = (node: Element) => Object.keys(node).some((key) => key.startsWith('__reactFiber$'));

describe(`the UI runtime of this run (${runtime})`, () => {
  it('is the one the project names', () => {
    expect(['preact', 'react']).toContain(runtime);
  });

  it('`react` is the runtime named: React itself, or Preact standing in for it', () => {
    renderWidget(<p data-testid="probe">probe</p>);
    const probe = document.querySelector('[data-testid="probe"]')!;
    if (runtime === 'react') {
      expect(version).toBe(reactVersion);
      expect(renderedByReact(probe)).toBe(true);
    } else {
      // preact/compat says it is React 18 for libraries that check, and keeps no fiber on the nodes
      expect(version).not.toBe(reactVersion);
      expect(renderedByReact(probe)).toBe(false);
    }
  });
});
