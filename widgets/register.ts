// Side-effect module: registers every element (idempotent). Imported by the all-in-one bundle and
// Storybook. The host page defines them itself as the reader nears each one (host/elements.ts).
import { ELEMENT_DEFINITIONS } from './define-all.ts';

for (const define of ELEMENT_DEFINITIONS) define();
