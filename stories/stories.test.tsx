/// <reference types="vite/client" />
import { composeStories, setProjectAnnotations } from '@storybook/react-vite';
import { afterEach, describe, expect, it } from 'vitest';
import * as previewAnnotations from './.storybook/preview.ts';
import { directionOf } from '../widgets/shared/element/element-lang.ts';
import { LOCALES } from './locale.tsx';

// Every story renders and runs its play function (portable stories), in jsdom, once per locale of the
// toolbar (issue 14): "Dose [en]", "Dose [ar]". The locale is the story's `locale` global, as the toolbar sets it.
setProjectAnnotations([previewAnnotations]);

// Remove each story's elements while the document still exists, and let their (deferred) unmounts
// and pending renders run now rather than after the environment is torn down.
afterEach(async () => {
  document.body.replaceChildren();
  await new Promise((resolve) => setTimeout(resolve, 20));
});
const modules = import.meta.glob<Record<string, unknown>>('./*.stories.tsx', { eager: true });

type StoryModule = Parameters<typeof composeStories>[0];
/** A story's play function waits on renders, requests and the ROI count-up (1.5 s): room for a busy machine. */
const STORY_TIMEOUT_MS = 20_000;

for (const [file, module] of Object.entries(modules)) {
  describe(file, () => {
    const byLocale = LOCALES.map(
      (locale) => [locale, composeStories(module as StoryModule, { initialGlobals: { locale } })] as const,
    );
    for (const name of Object.keys(byLocale[0]![1])) {
      for (const [locale, stories] of byLocale) {
        const story = stories[name as keyof typeof stories] as unknown as {
          globals: Record<string, unknown>;
          run: () => Promise<void>;
        };
        it(`${name} [${locale}]`, { timeout: STORY_TIMEOUT_MS }, async () => {
          // The composed story's globals are the ones its play function receives.
          expect(story.globals.locale).toBe(locale);
          await story.run();
          // Every element of the story speaks the locale: its shadow root's wrapper has the locale's direction.
          const hosts = [...document.body.querySelectorAll('*')].filter((node) => node.localName.startsWith('sgx-'));
          expect(hosts.length).toBeGreaterThan(0);
          for (const host of hosts) {
            const wrapper = [...(host.shadowRoot?.children ?? [])].find((child) => child.matches('div[dir]'));
            expect([host.localName, wrapper?.getAttribute('dir')]).toEqual([host.localName, directionOf(locale)]);
          }
        });
      }
    }
  });
}
