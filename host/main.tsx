import { useEffect } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { ELEMENT_DEFINITIONS } from '../widgets/define-all.ts';
import { App } from './App.tsx';

/**
 * Defines the elements one per task, the bar's first: each upgrade renders a whole form into its shadow
 * root, and a phone's main thread stays free for input between them (shorter tasks, less blocking time).
 */
function defineElementsOneByOne(): () => void {
  const pending = [...ELEMENT_DEFINITIONS];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const next = () => {
    pending.shift()?.();
    if (pending.length > 0) timer = setTimeout(next, 0);
  };
  next();
  return () => clearTimeout(timer);
}

/**
 * The elements are defined once the prerendered page is hydrated: defined earlier, they would change
 * the markup hydration is checking against the server's.
 */
function Page() {
  useEffect(() => defineElementsOneByOne(), []);
  return <App />;
}

const root = document.getElementById('root')!;
// The built page holds the prerendered markup (scripts/build-host.mjs); `npm run dev` serves it empty.
if (root.firstElementChild) hydrateRoot(root, <Page />);
else createRoot(root).render(<Page />);
