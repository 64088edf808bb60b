// Side-effect module: registers every element (idempotent). Imported by the all-in-one bundle,
// the host page and Storybook.
import { defineAccessPortal } from './access-portal/element.ts';
import { defineBradycardiaAdvisor } from './bradycardia-advisor/element.ts';
import { defineDoseCalculator } from './dose-calculator/element.ts';
import { defineRoiCalculator } from './roi-calculator/element.ts';

defineDoseCalculator();
defineBradycardiaAdvisor();
defineRoiCalculator();
defineAccessPortal();
