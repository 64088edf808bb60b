import { defineAccessPortal } from './access-portal/element.ts';
import { defineBradycardiaAdvisor } from './bradycardia-advisor/element.ts';
import { defineDoseCalculator } from './dose-calculator/element.ts';
import { defineRoiCalculator } from './roi-calculator/element.ts';

/** Registers every element (idempotent). */
export function defineAllElements(): void {
  defineDoseCalculator();
  defineBradycardiaAdvisor();
  defineRoiCalculator();
  defineAccessPortal();
}
