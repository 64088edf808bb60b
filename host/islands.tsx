import { Global } from '@emotion/react';
import type { ComponentType, ReactNode } from 'react';
import { Advantage } from './components/Advantage.tsx';
import { Contact } from './components/Contact.tsx';
import { Evidence } from './components/Evidence.tsx';
import { Faq } from './components/Faq.tsx';
import { Hero } from './components/Hero.tsx';
import { Mechanism } from './components/Mechanism.tsx';
import { Nav } from './components/Nav.tsx';
import { Resources } from './components/Resources.tsx';
import { SafetyHub } from './components/SafetyHub.tsx';
import { SkipLink } from './components/SkipLink.tsx';
import { AdvisorSection, CalculatorSection, SafetyCalculatorSection } from './components/ToolSections.tsx';
import { globalStyles } from './styles.ts';

function Top() {
  return (
    <>
      <Global styles={globalStyles} />
      <SkipLink />
      <Nav />
    </>
  );
}

export interface Island {
  /** The value of the wrapper's data-island attribute. */
  id: string;
  Component: ComponentType;
  /** Inside <main>, or before / after it. */
  place: 'before-main' | 'main' | 'after-main';
}

/**
 * The page as independent parts, each hydrated on its own (host/main.tsx): they share no state (each
 * reads the DOM or the elements' events for what it needs), so a phone's main thread gets a break
 * between them instead of one long hydration task. In the order they are hydrated: top of the page first.
 */
export const ISLANDS: readonly Island[] = [
  { id: 'top', Component: Top, place: 'before-main' },
  { id: 'hero', Component: Hero, place: 'main' },
  { id: 'moa', Component: Mechanism, place: 'main' },
  { id: 'advantage', Component: Advantage, place: 'main' },
  { id: 'calculator', Component: CalculatorSection, place: 'main' },
  { id: 'bradycardia-advisor', Component: AdvisorSection, place: 'main' },
  { id: 'safety-calculator', Component: SafetyCalculatorSection, place: 'main' },
  { id: 'safety', Component: SafetyHub, place: 'main' },
  { id: 'evidence', Component: Evidence, place: 'main' },
  { id: 'resources', Component: Resources, place: 'main' },
  { id: 'faq', Component: Faq, place: 'main' },
  { id: 'contact', Component: Contact, place: 'after-main' },
];

/** The wrapper of one island: no box of its own (display: contents), so the layout is the same. */
export function IslandRoot({ id, children }: { id: string; children: ReactNode }) {
  return (
    <div data-island={id} style={{ display: 'contents' }}>
      {children}
    </div>
  );
}
