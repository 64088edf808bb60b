import { useLayoutEffect } from 'react';
import { followHashLinks } from './deep-link.ts';
import { IslandRoot, ISLANDS, type Island } from './islands.tsx';

const islandsAt = (place: Island['place']) =>
  ISLANDS.filter((island) => island.place === place).map(({ id, Component }) => (
    <IslandRoot key={id} id={id}>
      <Component />
    </IslandRoot>
  ));

/** The single page (docs/product.md §2): sections in the spec's order, the fixed navigation above them. */
export function App() {
  // A link to a section (`/#calculator`) lands on it once the page has rendered (before it paints).
  useLayoutEffect(() => followHashLinks(), []);
  return (
    <>
      {islandsAt('before-main')}
      <main id="main" tabIndex={-1} css={{ paddingBlockStart: 'var(--nav-height)' }}>
        {islandsAt('main')}
      </main>
      {islandsAt('after-main')}
    </>
  );
}
