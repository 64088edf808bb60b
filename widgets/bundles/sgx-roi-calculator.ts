// Standalone bundle: <sgx-roi-calculator> alone, React included (/widgets/sgx-roi-calculator.js).
import { defineRoiCalculator } from '../roi-calculator/element.ts';
import { atPlainAddress } from '../shared/loading/releases.ts';

atPlainAddress(import.meta.url, defineRoiCalculator);
