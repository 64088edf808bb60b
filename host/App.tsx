import { useLayoutEffect } from 'react';
import { PageContentContext } from './content/context.ts';
import { contentFor } from './content/languages.ts';
import type { Lang } from './content/types.ts';
import { followHashLinks } from './deep-link.ts';
import { IslandRoot, ISLANDS, type Island } from './islands.tsx';

const islandsAt = (place: Island['place']) =>
  ISLANDS.filter((island) => island.place === place).map(({ id, Component }) => (
    <IslandRoot key={id} id={id}>
      <Component />
    </IslandRoot>
  ));

/**
 * The single page (docs/product.md §2): sections in the spec's order, the fixed navigation above them, in
 * `lang` (English at `/`, Arabic at `/ar/`: the same sections and anchors, laid out right to left by the
 * document's `dir`). The components read their texts from PageContentContext.
 */
export function App({ lang = 'en' }: { lang?: Lang }) {
  // A link to a section (`/#calculator`) lands on it once the page has rendered (before it paints).
  useLayoutEffect(() => followHashLinks(), []);
  return (
    <PageContentContext.Provider value={contentFor(lang)}>
      {islandsAt('before-main')}
      <main id="main" tabIndex={-1} css={{ paddingBlockStart: 'var(--nav-height)' }}>
        {islandsAt('main')}
      </main>
      {islandsAt('after-main')}
    </PageContentContext.Provider>
  );
}
