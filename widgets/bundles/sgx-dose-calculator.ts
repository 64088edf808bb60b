// Standalone bundle: <sgx-dose-calculator> alone, React included (/widgets/sgx-dose-calculator.js).
import { defineDoseCalculator } from '../dose-calculator/element.ts';
import { atPlainAddress } from '../shared/loading/releases.ts';

atPlainAddress(import.meta.url, defineDoseCalculator);
