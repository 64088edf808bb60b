import type { Preview } from '@storybook/react-vite';
import { withLocale } from '../locale.tsx';
import { withMockedApi, withSession } from '../mocks.tsx';
import '../../widgets/register.ts';

const preview: Preview = {
  // withLocale first: its <div lang dir> is the story's own parent, inside the mocked API and session.
  decorators: [withLocale, withMockedApi, withSession],
  // The toolbar's language switch (issue 14): the elements read `lang` from the wrapper withLocale renders.
  globalTypes: {
    locale: {
      description: 'Locale of the elements',
      toolbar: {
        title: 'Locale',
        icon: 'globe',
        items: [
          { value: 'en', title: 'English', right: 'ltr' },
          { value: 'ar', title: 'العربية', right: 'rtl' },
        ],
        dynamicTitle: true,
      },
    },
  },
  initialGlobals: { locale: 'en' },
  parameters: {
    layout: 'padded',
    controls: { expanded: true },
  },
};
export default preview;
