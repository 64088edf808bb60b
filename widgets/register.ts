// Side-effect module: registers every element (idempotent). Imported by the all-in-one bundle and
// Storybook; the host page defines them itself from the same list, one per task after hydration.
import { ELEMENT_DEFINITIONS } from './define-all.ts';

for (const define of ELEMENT_DEFINITIONS) define();
