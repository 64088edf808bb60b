// All four elements in one bundle (/widgets/sgx-widgets.js).
import { ELEMENT_DEFINITIONS } from '../define-all.ts';
import { atPlainAddress } from '../shared/loading/releases.ts';

atPlainAddress(import.meta.url, () => {
  for (const define of ELEMENT_DEFINITIONS) define();
});
