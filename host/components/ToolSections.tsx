import { usePageContent } from '../content/context.ts';
import { Section } from './Section.tsx';

// The three tool sections hold the custom elements (they show their own headings). Each element's
// box has a minimum height so the page does not shift while its script loads.
export function CalculatorSection() {
  const { title, intro } = usePageContent().tools.calculator;
  return (
    <Section id="calculator" title={title} intro={intro} headingInside>
      <sgx-dose-calculator style={{ display: 'block', minHeight: 640 }} />
    </Section>
  );
}

export function AdvisorSection() {
  const { title, intro } = usePageContent().tools['bradycardia-advisor'];
  return (
    <Section id="bradycardia-advisor" title={title} intro={intro} tint headingInside>
      <sgx-bradycardia-advisor style={{ display: 'block', minHeight: 820 }} />
    </Section>
  );
}

export function SafetyCalculatorSection() {
  const { title, intro } = usePageContent().tools['safety-calculator'];
  return (
    <Section id="safety-calculator" title={title} intro={intro} headingInside>
      <sgx-roi-calculator style={{ display: 'block', minHeight: 900 }} />
    </Section>
  );
}
