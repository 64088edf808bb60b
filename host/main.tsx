import { useEffect } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { defineAllElements } from '../widgets/define-all.ts';
import { App } from './App.tsx';

/**
 * The elements are defined once React has hydrated the prerendered page: defined earlier, they
 * would change the markup React is checking against the server's.
 */
function Page() {
  useEffect(() => defineAllElements(), []);
  return <App />;
}

const root = document.getElementById('root')!;
// The built page holds the prerendered markup (scripts/build-host.mjs); `npm run dev` serves it empty.
if (root.firstElementChild) hydrateRoot(root, <Page />);
else createRoot(root).render(<Page />);
