import { createRoot } from 'react-dom/client';
import '../widgets/register.ts';
import { App } from './App.tsx';

createRoot(document.getElementById('root')!).render(<App />);
