import type { CSSObject } from '@emotion/react';
import { usePageContent } from '../content/context.ts';
import type { Lang } from '../content/types.ts';
import { RESERVED_HEIGHTS, type Tool } from './reserved-heights.ts';
import { Section } from './Section.tsx';

/** The element's box: a block, with its rendered height reserved until it is defined. */
function reservedBox(tool: Tool, lang: Lang): CSSObject {
  const rows = RESERVED_HEIGHTS[lang];
  const byWidth = [...rows]
    .reverse()
    .filter((row) => row.maxWidth !== null)
    .map((row) => [`@media (max-width: ${row.maxWidth}px)`, { minHeight: row.px[tool] }]);
  return { display: 'block', '&:not(:defined)': { minHeight: rows.at(-1)!.px[tool], ...Object.fromEntries(byWidth) } };
}

/**
 * The element's light DOM, shown only until it is defined (its shadow root has no slot): the tool's heading,
 * so that a reader moving by heading finds each tool before its code has loaded, and with scripts off, why
 * the box is empty. (The noscript holds bare text: with scripts on, its content is parsed as text.)
 */
function BeforeDefined({ title }: { title: string }) {
  const { chrome } = usePageContent();
  return (
    <>
      <h2 css={{ fontSize: '1.5rem', margin: '0 0 12px' }}>{title}</h2>
      <noscript css={{ display: 'block', maxWidth: '70ch', color: '#475569' }}>{chrome.toolNeedsScript}</noscript>
    </>
  );
}

// The three tool sections hold the custom elements (they show their own headings once defined).
export function CalculatorSection() {
  const { tools, site } = usePageContent();
  const { title, intro } = tools.calculator;
  return (
    <Section id="calculator" title={title} intro={intro} headingInside>
      <sgx-dose-calculator css={reservedBox('dose', site.lang)}>
        <BeforeDefined title={title} />
      </sgx-dose-calculator>
    </Section>
  );
}

export function AdvisorSection() {
  const { tools, site } = usePageContent();
  const { title, intro } = tools['bradycardia-advisor'];
  return (
    <Section id="bradycardia-advisor" title={title} intro={intro} tint headingInside>
      <sgx-bradycardia-advisor css={reservedBox('advisor', site.lang)}>
        <BeforeDefined title={title} />
      </sgx-bradycardia-advisor>
    </Section>
  );
}

export function SafetyCalculatorSection() {
  const { tools, site } = usePageContent();
  const { title, intro } = tools['safety-calculator'];
  return (
    <Section id="safety-calculator" title={title} intro={intro} headingInside>
      <sgx-roi-calculator css={reservedBox('roi', site.lang)}>
        <BeforeDefined title={title} />
      </sgx-roi-calculator>
    </Section>
  );
}
