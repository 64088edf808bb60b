// Standalone bundle: <sgx-access-portal> alone, React included (/widgets/sgx-access-portal.js).
import { defineAccessPortal } from '../access-portal/element.ts';
import { atPlainAddress } from '../shared/loading/releases.ts';

atPlainAddress(import.meta.url, defineAccessPortal);
