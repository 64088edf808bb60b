import { Global } from '@emotion/react';
import { useLayoutEffect } from 'react';
import { Advantage } from './components/Advantage.tsx';
import { Contact } from './components/Contact.tsx';
import { Evidence } from './components/Evidence.tsx';
import { Faq } from './components/Faq.tsx';
import { Hero } from './components/Hero.tsx';
import { Mechanism } from './components/Mechanism.tsx';
import { Nav } from './components/Nav.tsx';
import { Resources } from './components/Resources.tsx';
import { SafetyHub } from './components/SafetyHub.tsx';
import { AdvisorSection, CalculatorSection, SafetyCalculatorSection } from './components/ToolSections.tsx';
import { followHashLinks } from './deep-link.ts';
import { colour, globalStyles } from './styles.ts';

/** The single page (docs/product.md §2): sections in the spec's order, the fixed navigation above them. */
export function App() {
  // A link to a section (`/#calculator`) lands on it once the page has rendered (before it paints).
  useLayoutEffect(() => followHashLinks(), []);
  return (
    <>
      <Global styles={globalStyles} />
      <a
        href="#main"
        css={{
          position: 'absolute',
          insetInlineStart: 8,
          insetBlockStart: -60,
          zIndex: 100,
          padding: '10px 14px',
          background: colour.primary,
          color: '#fff',
          borderRadius: 8,
          '&:focus': { insetBlockStart: 8 },
        }}
      >
        Skip to content
      </a>
      <Nav />
      <main id="main" tabIndex={-1} css={{ paddingBlockStart: 'var(--nav-height)' }}>
        <Hero />
        <Mechanism />
        <Advantage />
        <CalculatorSection />
        <AdvisorSection />
        <SafetyCalculatorSection />
        <SafetyHub />
        <Evidence />
        <Resources />
        <Faq />
      </main>
      <Contact />
    </>
  );
}
