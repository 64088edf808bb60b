import type { ToolSectionContent, ToolSectionId } from './types.ts';

/** One-line lead-ins for the three tool sections; the widgets carry their own titles (docs/product.md §2). */
export const TOOL_SECTIONS: Record<ToolSectionId, ToolSectionContent> = {
  calculator: {
    title: 'Dose Calculator',
    intro: 'Weight-based dose, vials, volume and cost from the block depth, age group and renal function.',
  },
  'bradycardia-advisor': {
    title: 'Bradycardia Advisor',
    intro: 'A transparent, unvalidated risk estimate with a management plan and re-paralysis guidance.',
  },
  'safety-calculator': {
    title: 'Safety Calculator',
    intro: 'Operating-room time, capacity and pulmonary-complication estimates for your case volume.',
  },
};
