// Type-level check of the element contract for host pages (compiled by `npm run typecheck`, never run):
// JSX for React hosts, HTMLElementTagNameMap and the typed events.
import type { SgxBradycardiaAdvisorElement, SgxRoiCalculatorElement } from './element-types.ts';
import type {} from './shared/widget-host/events.ts';

export function HostPageExample() {
  return (
    <main>
      <sgx-dose-calculator weight="70" age-group="adult" />
      <sgx-bradycardia-advisor api-base="https://reversal.example.org" />
      <sgx-roi-calculator cases="250" or-cost-per-minute="60" />
      <sgx-access-portal api-base="" />
    </main>
  );
}

export function queryExample(): number | undefined {
  const advisor: SgxBradycardiaAdvisorElement | null = document.querySelector('sgx-bradycardia-advisor');
  const roi: SgxRoiCalculatorElement | null = document.querySelector('sgx-roi-calculator');
  if (advisor) advisor.apiBase = 'https://reversal.example.org';
  if (roi) roi.cases = '300';
  let total: number | undefined;
  document.addEventListener('sgx-dose-calculated', (event) => {
    const { outcome } = event.detail;
    if (outcome.kind === 'dose') total = outcome.totalDoseMg;
  });
  document.addEventListener('sgx-risk-assessed', (event) => {
    const band: 'LOW' | 'MODERATE' | 'HIGH' = event.detail.assessment.riskBand;
    void band;
  });
  return total;
}
