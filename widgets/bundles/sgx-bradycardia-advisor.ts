// Standalone bundle: <sgx-bradycardia-advisor> alone, React included (/widgets/sgx-bradycardia-advisor.js).
import { defineBradycardiaAdvisor } from '../bradycardia-advisor/element.ts';
import { atPlainAddress } from '../shared/loading/releases.ts';

atPlainAddress(import.meta.url, defineBradycardiaAdvisor);
