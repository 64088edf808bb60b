import { defineAccessPortal } from './access-portal/element.ts';
import { defineBradycardiaAdvisor } from './bradycardia-advisor/element.ts';
import { defineDoseCalculator } from './dose-calculator/element.ts';
import { defineRoiCalculator } from './roi-calculator/element.ts';

/** Each element's registration, in the product page's order (the access control in the bar first). */
export const ELEMENT_DEFINITIONS: readonly (() => CustomElementConstructor)[] = [
  defineAccessPortal,
  defineDoseCalculator,
  defineBradycardiaAdvisor,
  defineRoiCalculator,
];
