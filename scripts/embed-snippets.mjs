#!/usr/bin/env node
// The README's pinned embedding snippet, made from a build's widgets/embed.json: an import map whose
// "integrity" pins the element's bundle and every chunk it may load later, then the element and its script
// with the bundle's own integrity. `npm run readme:embed` builds the bundles and writes the snippet into
// README.md; e2e/pinned-embed.e2e.ts checks that README.md holds the served build's snippet and that the
// snippet, pasted into a page, works (and refuses a file altered on the way).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const README = path.join(root, 'README.md');

/** What the README's snippets say instead of the product's address; a reader replaces it with theirs. */
export const PRODUCT_ORIGIN_PLACEHOLDER = 'https://reversal.example.org';
/** The element the README's pinned snippet embeds. */
export const README_PINNED_ELEMENT = 'sgx-dose-calculator';

const START = '<!-- pinned-embed:start';
const END = '<!-- pinned-embed:end -->';

/** embed.json's listing of one build: the default one, or the React build (`runtime` 'react'). */
export function embedBuild(embed, runtime = 'default') {
  if (runtime === 'default') return embed;
  const build = embed[runtime];
  if (!build) throw new Error(`embed.json has no ${runtime} build`);
  return build;
}

/** The import map pinning everything `tag` may run: its bundle and each chunk, at `origin`. */
export function pinnedImportMap(embed, tag, origin = PRODUCT_ORIGIN_PLACEHOLDER, runtime = 'default') {
  const element = embedBuild(embed, runtime).elements[tag];
  if (!element) throw new Error(`embed.json has no element ${tag}`);
  const integrity = { [`${origin}${element.url}`]: element.integrity };
  for (const [url, hash] of Object.entries(element.chunks)) integrity[`${origin}${url}`] = hash;
  return { integrity };
}

/** The pinned snippet for `tag`: the import map, the element, its module script with integrity. */
export function pinnedSnippet(
  embed,
  tag = README_PINNED_ELEMENT,
  origin = PRODUCT_ORIGIN_PLACEHOLDER,
  runtime = 'default',
) {
  const element = embedBuild(embed, runtime).elements[tag];
  return [
    '<script type="importmap">',
    JSON.stringify(pinnedImportMap(embed, tag, origin, runtime), null, 2),
    '</script>',
    `<${tag}></${tag}>`,
    '<script type="module" crossorigin="anonymous"',
    `  src="${origin}${element.url}"`,
    `  integrity="${element.integrity}"></script>`,
  ].join('\n');
}

/** The snippet README.md shows between its pinned-embed markers (the html block's text). */
export function readmePinnedSnippet(readme = readFileSync(README, 'utf8')) {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start < 0 || end < start) throw new Error(`README.md has no ${START} … ${END} block`);
  const block = /```html\n([\s\S]*?)\n```/.exec(readme.slice(start, end));
  if (!block) throw new Error('README.md has no ```html block between its pinned-embed markers');
  return block[1];
}

/** README.md's text with `snippet` between its pinned-embed markers. */
export function withPinnedSnippet(readme, snippet) {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start < 0 || end < start) throw new Error(`README.md has no ${START} … ${END} block`);
  const marker = readme.slice(start, readme.indexOf('\n', start));
  return `${readme.slice(0, start)}${marker}\n\`\`\`html\n${snippet}\n\`\`\`\n${readme.slice(end)}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { buildReleaseWidgets, WIDGET_ENTRIES } = await import('./build-widgets.mjs');
  const { versionWidgets } = await import('./build-delivery.mjs');
  const scratch = mkdtempSync(path.join(tmpdir(), 'sgx-embed-'));
  try {
    const widgetsDir = await buildReleaseWidgets(path.join(scratch, 'widgets'));
    const embed = versionWidgets(widgetsDir, WIDGET_ENTRIES);
    const readme = readFileSync(README, 'utf8');
    const updated = withPinnedSnippet(readme, pinnedSnippet(embed));
    if (updated === readme) console.log('README.md: the pinned snippet is current.');
    else {
      writeFileSync(README, updated);
      console.log(`README.md: the pinned snippet now pins release ${embed.version} as built.`);
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
