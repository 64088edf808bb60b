import { TOOL_SECTIONS } from '../content/index.ts';
import { Section } from './Section.tsx';

// The three tool sections hold the custom elements (they show their own headings). Each element's
// box has a minimum height so the page does not shift while its script loads.
export function CalculatorSection() {
  return (
    <Section id="calculator" title="Dose Calculator" intro={TOOL_SECTIONS.calculator.intro} headingInside>
      <sgx-dose-calculator style={{ display: 'block', minHeight: 640 }} />
    </Section>
  );
}

export function AdvisorSection() {
  return (
    <Section
      id="bradycardia-advisor"
      title="Bradycardia Advisor"
      intro={TOOL_SECTIONS['bradycardia-advisor'].intro}
      tint
      headingInside
    >
      <sgx-bradycardia-advisor style={{ display: 'block', minHeight: 820 }} />
    </Section>
  );
}

export function SafetyCalculatorSection() {
  return (
    <Section
      id="safety-calculator"
      title="Safety Calculator"
      intro={TOOL_SECTIONS['safety-calculator'].intro}
      headingInside
    >
      <sgx-roi-calculator style={{ display: 'block', minHeight: 900 }} />
    </Section>
  );
}
