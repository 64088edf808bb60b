import type { Preview } from '@storybook/react-vite';
import { withMockedApi, withSession } from '../mocks.tsx';
import '../../widgets/register.ts';

const preview: Preview = {
  decorators: [withMockedApi, withSession],
  parameters: {
    layout: 'padded',
    controls: { expanded: true },
  },
};
export default preview;
