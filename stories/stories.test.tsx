/// <reference types="vite/client" />
import { composeStories, setProjectAnnotations } from '@storybook/react-vite';
import { afterEach, describe, it } from 'vitest';
import * as previewAnnotations from './.storybook/preview.ts';

// Every story renders and runs its play function (portable stories), in jsdom.
setProjectAnnotations([previewAnnotations]);

// Remove each story's elements while the document still exists, and let their (deferred) unmounts
// and pending renders run now rather than after the environment is torn down.
afterEach(async () => {
  document.body.replaceChildren();
  await new Promise((resolve) => setTimeout(resolve, 20));
});
const modules = import.meta.glob<Record<string, unknown>>('./*.stories.tsx', { eager: true });

for (const [file, module] of Object.entries(modules)) {
  describe(file, () => {
    for (const [name, story] of Object.entries(composeStories(module as Parameters<typeof composeStories>[0]))) {
      it(name, async () => {
        await (story as { run: () => Promise<void> }).run();
      });
    }
  });
}
