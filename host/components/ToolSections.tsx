import type { CSSObject } from '@emotion/react';
import { usePageContent } from '../content/context.ts';
import type { Lang } from '../content/types.ts';
import { Section } from './Section.tsx';

type Tool = 'dose' | 'advisor' | 'roi';

/** Each row: up to `maxWidth` px of viewport (the last row: any wider), the height (px) of each element. */
type ReservedHeights = readonly { maxWidth: number | null; px: Record<Tool, number> }[];

/**
 * The height each element renders at, by viewport width and page language (Arabic wraps differently),
 * measured in Chromium. It is reserved while the element is not yet defined, since the page defines each
 * as the reader comes near it (host/elements.ts): the box is the right size before the element upgrades,
 * and nothing below it moves then. e2e/prerendered-page.e2e.ts checks them against the rendered elements
 * at phone, tablet and desktop widths.
 */
export const RESERVED_HEIGHTS: Readonly<Record<Lang, ReservedHeights>> = {
  en: [
    { maxWidth: 350, px: { dose: 1160, advisor: 1480, roi: 2700 } },
    { maxWidth: 380, px: { dose: 1040, advisor: 1420, roi: 2600 } },
    { maxWidth: 420, px: { dose: 997, advisor: 1380, roi: 2430 } },
    { maxWidth: 500, px: { dose: 960, advisor: 1200, roi: 2250 } },
    { maxWidth: 660, px: { dose: 760, advisor: 990, roi: 1740 } },
    { maxWidth: 800, px: { dose: 690, advisor: 980, roi: 1640 } },
    { maxWidth: 980, px: { dose: 940, advisor: 950, roi: 1200 } },
    { maxWidth: 1150, px: { dose: 770, advisor: 890, roi: 1010 } },
    { maxWidth: null, px: { dose: 733, advisor: 875, roi: 1001 } },
  ],
  ar: [
    { maxWidth: 350, px: { dose: 1130, advisor: 1527, roi: 2900 } },
    { maxWidth: 380, px: { dose: 1059, advisor: 1473, roi: 2760 } },
    { maxWidth: 420, px: { dose: 1005, advisor: 1420, roi: 2600 } },
    { maxWidth: 500, px: { dose: 975, advisor: 1250, roi: 2430 } },
    { maxWidth: 660, px: { dose: 753, advisor: 1008, roi: 1840 } },
    { maxWidth: 800, px: { dose: 733, advisor: 997, roi: 1680 } },
    { maxWidth: 980, px: { dose: 953, advisor: 1071, roi: 1337 } },
    { maxWidth: 1150, px: { dose: 733, advisor: 964, roi: 1173 } },
    { maxWidth: null, px: { dose: 733, advisor: 934, roi: 1073 } },
  ],
};

/** The element's box: a block, with its rendered height reserved until it is defined. */
function reservedBox(tool: Tool, lang: Lang): CSSObject {
  const rows = RESERVED_HEIGHTS[lang];
  const byWidth = [...rows]
    .reverse()
    .filter((row) => row.maxWidth !== null)
    .map((row) => [`@media (max-width: ${row.maxWidth}px)`, { minHeight: row.px[tool] }]);
  return { display: 'block', '&:not(:defined)': { minHeight: rows.at(-1)!.px[tool], ...Object.fromEntries(byWidth) } };
}

// The three tool sections hold the custom elements (they show their own headings).
export function CalculatorSection() {
  const { tools, site } = usePageContent();
  const { title, intro } = tools.calculator;
  return (
    <Section id="calculator" title={title} intro={intro} headingInside>
      <sgx-dose-calculator css={reservedBox('dose', site.lang)} />
    </Section>
  );
}

export function AdvisorSection() {
  const { tools, site } = usePageContent();
  const { title, intro } = tools['bradycardia-advisor'];
  return (
    <Section id="bradycardia-advisor" title={title} intro={intro} tint headingInside>
      <sgx-bradycardia-advisor css={reservedBox('advisor', site.lang)} />
    </Section>
  );
}

export function SafetyCalculatorSection() {
  const { tools, site } = usePageContent();
  const { title, intro } = tools['safety-calculator'];
  return (
    <Section id="safety-calculator" title={title} intro={intro} headingInside>
      <sgx-roi-calculator css={reservedBox('roi', site.lang)} />
    </Section>
  );
}
