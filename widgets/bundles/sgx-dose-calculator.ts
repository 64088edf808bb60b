// Standalone bundle: <sgx-dose-calculator> alone, React included (/widgets/sgx-dose-calculator.js).
import { defineDoseCalculator } from '../dose-calculator/element.ts';

defineDoseCalculator();
