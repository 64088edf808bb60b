import type { CSSObject } from '@emotion/react';
import { usePageContent } from '../content/context.ts';
import { Section } from './Section.tsx';

type Tool = 'dose' | 'advisor' | 'roi';

/**
 * The height (px) each element renders at, by viewport width (up to `maxWidth`, the last for any wider),
 * measured in Chromium on the English page. It is reserved while the element is not yet defined, since the
 * page defines each as the reader comes near it (host/elements.ts): the box is the right size before the
 * element upgrades, and nothing below it moves then. e2e/prerendered-page.e2e.ts checks these against the
 * rendered elements at phone, tablet and desktop widths.
 */
export const RESERVED_HEIGHTS: readonly { maxWidth: number | null; px: Record<Tool, number> }[] = [
  { maxWidth: 350, px: { dose: 1160, advisor: 1480, roi: 2700 } },
  { maxWidth: 380, px: { dose: 1040, advisor: 1420, roi: 2600 } },
  { maxWidth: 420, px: { dose: 997, advisor: 1380, roi: 2430 } },
  { maxWidth: 500, px: { dose: 960, advisor: 1200, roi: 2250 } },
  { maxWidth: 660, px: { dose: 760, advisor: 990, roi: 1740 } },
  { maxWidth: 800, px: { dose: 690, advisor: 980, roi: 1640 } },
  { maxWidth: 980, px: { dose: 940, advisor: 950, roi: 1200 } },
  { maxWidth: 1150, px: { dose: 770, advisor: 890, roi: 1010 } },
  { maxWidth: null, px: { dose: 733, advisor: 875, roi: 1001 } },
];

/** The element's box: a block, with its rendered height reserved until it is defined. */
function reservedBox(tool: Tool): CSSObject {
  const widest = RESERVED_HEIGHTS.at(-1)!;
  const byWidth = [...RESERVED_HEIGHTS]
    .reverse()
    .filter((row) => row.maxWidth !== null)
    .map((row) => [`@media (max-width: ${row.maxWidth}px)`, { minHeight: row.px[tool] }]);
  return { display: 'block', '&:not(:defined)': { minHeight: widest.px[tool], ...Object.fromEntries(byWidth) } };
}

// The three tool sections hold the custom elements (they show their own headings).
export function CalculatorSection() {
  const { title, intro } = usePageContent().tools.calculator;
  return (
    <Section id="calculator" title={title} intro={intro} headingInside>
      <sgx-dose-calculator css={reservedBox('dose')} />
    </Section>
  );
}

export function AdvisorSection() {
  const { title, intro } = usePageContent().tools['bradycardia-advisor'];
  return (
    <Section id="bradycardia-advisor" title={title} intro={intro} tint headingInside>
      <sgx-bradycardia-advisor css={reservedBox('advisor')} />
    </Section>
  );
}

export function SafetyCalculatorSection() {
  const { title, intro } = usePageContent().tools['safety-calculator'];
  return (
    <Section id="safety-calculator" title={title} intro={intro} headingInside>
      <sgx-roi-calculator css={reservedBox('roi')} />
    </Section>
  );
}
