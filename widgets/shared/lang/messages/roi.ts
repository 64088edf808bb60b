/** The ROI and safety calculator's strings (docs/product.md §2, §3, §5, §8, §9), including its PDF and e-mail report. */
export const roi = {
  title: 'ROI & Safety Calculator',
  subtitle:
    'Estimate the OR time, OR capacity and pulmonary-complication benefits of sugammadex over neostigmine for your case volume.',

  // Inputs card (docs/product.md §3, §5)
  inputsTitle: 'Inputs',
  numberOfCases: 'Number of cases',
  numberOfCasesHint: 'Cases in the period you are estimating (e.g. a year); whole number, invalid or empty counts as 0',
  wholeNumberHint: 'Whole number; invalid or empty counts as 0',
  orCostPerMinute: 'OR cost per minute',
  timeNeostigmine: 'Time to TOF ratio ≥ 0.9 with neostigmine',
  timeProduct: 'Time to TOF ratio ≥ 0.9 with sugammadex',
  baselinePpcRate: 'Baseline PPC rate',
  baselinePpcRateHint: 'Postoperative pulmonary complications without sugammadex',
  riskRatio: 'PPC risk ratio (sugammadex vs neostigmine)',
  riskRatioNote: 'Fixed at 0.62, from a 2025 systematic review; not editable.',
  unitSar: 'SAR',
  unitSarPerMin: 'SAR/min',
  unitMin: 'min',
  unitPercent: '%',
  sarPerMinute: (value: number) => `${value} SAR per minute`,
  percentValue: (value: number) => `${value} percent`,

  // Result cards (docs/product.md §3 ROI results)
  resultsLabel: 'Results',
  timeSaved: 'Time saved',
  hoursFreed: (hours: string) => `${hours} h of OR time freed`,
  costSaved: 'Cost saved',
  costSavedNote: 'OR capacity freed, not cash',
  ppcsAvoided: 'PPCs avoided',
  ppcsAvoidedNote: 'Postoperative pulmonary complications avoided (risk ratio 0.62)',
  resultsAnnouncement: (time: string, hours: string, cost: string, ppcs: string) =>
    `Time saved ${time} min (${hours} h); cost saved ${cost} SAR; PPCs avoided ${ppcs}.`,

  // Impact summary and the time-comparison chart (docs/product.md §2, §5; docs/clinical-reference.md §5)
  impactTitle: 'Impact summary',
  impactSummary: (cases: number, hours: string, cost: string, ppcs: string) =>
    `Across ${cases} cases, reversing with sugammadex instead of neostigmine frees about ${hours} hours of OR time (${cost} SAR of OR capacity) and avoids an estimated ${ppcs} postoperative pulmonary complications.`,
  fixedCostNote:
    'Most OR cost is fixed, so "cost saved" is OR capacity freed for other cases, not cash returned to the budget.',
  tofNote:
    'OR-time savings appear only when a TOF ratio ≥ 0.9 is verified with quantitative monitoring before extubation.',
  chartTitle: 'Time to extubation readiness',
  chartLabel: (neostigmine: number, product: number) =>
    `Time to TOF ratio ≥ 0.9: neostigmine ${neostigmine} min, sugammadex ${product} min`,
  neostigmine: 'Neostigmine',
  product: 'Sugammadex',
  minutes: (value: number) => `${value} min`,

  // Actions (docs/product.md §4, §7, §8)
  downloadPdf: 'Download PDF',
  emailReport: 'E-mail Report',
  pdfError: 'Error generating PDF. Please try again.',

  // Call to action (docs/product.md §2)
  ctaTitle: 'Ready to reverse with confidence?',
  ctaText: 'Work out the weight-based dose for your patient, or keep the HCP dosing guide at hand.',
  calculateDose: 'Calculate Dose',
  downloadGuide: 'Download HCP Guide',

  disclaimer:
    'Estimates for planning only. Results depend on the figures entered and on local practice; they are not a guarantee of savings or outcomes. Decision support only: confirm every decision against the product information and clinical judgement.',

  // The PDF report (docs/product.md §7: inputs, results, impact summary, date of generation)
  report: {
    title: 'Sugammadex ROI & Safety Report',
    generated: (when: string) => `Generated: ${when}`,
    inputs: 'Inputs',
    results: 'Results',
    impact: 'Impact summary',
    chart: 'Time to TOF ratio >= 0.9',
    disclaimer: 'Disclaimer',
    numberOfCases: (value: number) => `Number of cases: ${value}`,
    orCostPerMinute: (value: number) => `OR cost per minute: ${value} SAR`,
    timeNeostigmine: (value: number) => `Time to TOF ratio >= 0.9 with neostigmine: ${value} min`,
    timeProduct: (value: number) => `Time to TOF ratio >= 0.9 with sugammadex: ${value} min`,
    baselinePpcRate: (value: number) => `Baseline PPC rate: ${value}%`,
    riskRatio: (value: number) => `PPC risk ratio (fixed, 2025 systematic review): ${value}`,
    timeSaved: (minutes: number, hours: string) => `Time saved: ${minutes} min (${hours} h of OR time freed)`,
    costSaved: (cost: string) => `Cost saved: ${cost} SAR (OR capacity freed, not cash)`,
    ppcsAvoided: (ppcs: string) => `PPCs avoided: ${ppcs}`,
  },

  // The e-mail report (docs/product.md §7: mail client, no recipient)
  mail: {
    subject: 'Sugammadex ROI & Safety Calculator - estimate',
    intro: 'ROI & Safety Calculator estimate (sugammadex vs neostigmine)',
  },
} as const;
