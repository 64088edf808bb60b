// Side-effect module: registers every element (idempotent). Imported by the all-in-one bundle and
// Storybook; the host page calls defineAllElements itself, after hydration.
import { defineAllElements } from './define-all.ts';

defineAllElements();
