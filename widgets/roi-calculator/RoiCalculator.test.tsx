import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SgxEventDetails, SgxEventName } from '../shared/widget-host/events.ts';
import { hostFor, WidgetHostContext, type WidgetHost } from '../shared/widget-host/widget-context.ts';
import { WidgetRoot } from '../shared/element/widget-root.tsx';
import { renderWidget } from '../test-utils.tsx';
import { mailNavigation } from './mail-report.ts';
import { resolveRoiPresets } from './presets.ts';
import { RoiCalculator } from './RoiCalculator.tsx';
import { stubReducedMotion } from './test-helpers.ts';

// jsPDF, observed: the factory runs only when something imports 'jspdf' (so `loads` shows when it
// is loaded), the real library builds the document, and save() is recorded instead of downloading.
const pdf = vi.hoisted(() => ({ loads: 0, fail: false, saved: [] as string[], texts: [] as string[] }));
vi.mock('jspdf', async (importOriginal) => {
  pdf.loads += 1;
  const real = await importOriginal<typeof import('jspdf')>();
  function TestPdf(...args: ConstructorParameters<typeof real.jsPDF>) {
    if (pdf.fail) throw new Error('jsPDF could not start');
    const doc = new real.jsPDF(...args);
    const text = doc.text.bind(doc) as (...all: unknown[]) => unknown;
    doc.text = ((content: string | string[], ...rest: unknown[]) => {
      pdf.texts.push(...(Array.isArray(content) ? content : [content]));
      return text(content, ...rest);
    }) as typeof doc.text;
    doc.save = ((name: string) => {
      pdf.saved.push(name);
      return doc;
    }) as typeof doc.save;
    return doc;
  }
  return { ...real, jsPDF: TestPdf, default: TestPdf };
});

type Sent = { name: SgxEventName; detail: SgxEventDetails[SgxEventName] };
/** Renders inside a host whose emit() is recorded (in the page, the element dispatches the events). */
function renderRecording(ui: ReactElement) {
  const sent: Sent[] = [];
  const host: WidgetHost = { ...hostFor(null), emit: (name, detail) => sent.push({ name, detail }) };
  renderWidget(<WidgetHostContext.Provider value={host}>{ui}</WidgetHostContext.Provider>);
  return sent;
}

const value = (id: string) => screen.getByTestId(`${id}-value`).textContent;
const shown = () => [
  value('time-saved'),
  screen.getByTestId('time-saved-note').textContent,
  value('cost-saved'),
  value('ppcs-avoided'),
];
const field = (label: RegExp) => screen.getByLabelText(label) as HTMLInputElement;
const type = (label: RegExp, text: string) => fireEvent.input(field(label), { target: { value: text } });
const defaultsDetail = {
  inputs: { numberOfCases: 100, orCostPerMinute: 45, timeNeostigmine: 15, timeProduct: 3, baselinePPCRate: 10 },
};

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.useRealTimers();
});

describe('<RoiCalculator> results and the count-up (docs/product.md §4, §9)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  it('defaults: 1200 min / 20.0 h, 54,000 SAR, 3.8 PPCs after the animation; they start at zero', () => {
    renderWidget(<RoiCalculator />);
    expect(shown()).toEqual(['0', '0.0 h of OR time freed', '0', '0.0']);
    act(() => vi.advanceTimersByTime(25));
    expect(shown()).toEqual(['20', '0.3 h of OR time freed', '900', '0.1']); // one step of 60
    act(() => vi.advanceTimersByTime(25 * 59));
    // (15 − 3) × 100 = 1200 min; / 60 = 20.0 h; × 45 = 54,000 SAR; 100 × 10% × (1 − 0.62) = 3.8
    expect(shown()).toEqual(['1200', '20.0 h of OR time freed', '54,000', '3.8']);
  });

  it('recomputes and counts up again when an input changes: 200 cases → 2400 min, 40.0 h, 108,000 SAR, 7.6', () => {
    renderWidget(<RoiCalculator />);
    act(() => vi.advanceTimersByTime(1500));
    type(/^Number of cases/, '200');
    expect(value('cost-saved')).toBe('0');
    act(() => vi.advanceTimersByTime(1500));
    expect(shown()).toEqual(['2400', '40.0 h of OR time freed', '108,000', '7.6']);
  });

  it.each([
    // label, text, expected [time, hours note, cost, ppcs]
    [/^OR cost per minute/, '150', ['1200', '20.0 h of OR time freed', '180,000', '3.8']], // 1200 × 150
    // (20 − 3) × 100; 1700 / 60 = 28.33
    [/with neostigmine/, '20', ['1700', '28.3 h of OR time freed', '76,500', '3.8']],
    [/with sugammadex/, '5', ['1000', '16.7 h of OR time freed', '45,000', '3.8']], // (15 − 5) × 100
    [/^Baseline PPC rate/, '20', ['1200', '20.0 h of OR time freed', '54,000', '7.6']], // 100 × 20% × 0.38
    [/^Number of cases/, '7', ['84', '1.4 h of OR time freed', '3,780', '0.3']], // 12 × 7; 7 × 10% × 0.38 = 0.266
  ])('%s = %s → %j', (label, text, expected) => {
    renderWidget(<RoiCalculator />);
    type(label, text);
    act(() => vi.advanceTimersByTime(1500));
    expect(shown()).toEqual(expected);
  });

  it.each(['', 'abc', '-5', '1e3', '12abc'])('cases "%s" counts as 0 cases', (text) => {
    renderWidget(<RoiCalculator />);
    type(/^Number of cases/, text);
    act(() => vi.advanceTimersByTime(1500));
    expect(shown()).toEqual(['0', '0.0 h of OR time freed', '0', '0.0']);
    expect(field(/^Number of cases/).value).toBe(text); // the text stays as typed
  });

  it('a decimal is cut to its whole part; an empty time is 0 minutes', () => {
    renderWidget(<RoiCalculator />);
    type(/^Number of cases/, '12.7'); // → 12 cases
    type(/with sugammadex/, ''); // → 0 min
    act(() => vi.advanceTimersByTime(1500));
    // 15 × 12 = 180; 12 × 0.1 × 0.38 = 0.456
    expect(shown()).toEqual(['180', '3.0 h of OR time freed', '8,100', '0.5']);
    expect(screen.getByTestId('bar-product').style.inlineSize).toBe('0%');
  });

  it('with prefers-reduced-motion the final values show at once', () => {
    stubReducedMotion(true);
    renderWidget(<RoiCalculator />);
    expect(shown()).toEqual(['1200', '20.0 h of OR time freed', '54,000', '3.8']);
    type(/^Number of cases/, '200');
    expect(shown()).toEqual(['2400', '40.0 h of OR time freed', '108,000', '7.6']);
  });

  it('announces the final figures once, not each animation step', () => {
    renderWidget(<RoiCalculator />);
    const live = screen.getByText(/^Time saved 1200 min/);
    expect(live.getAttribute('aria-live')).toBe('polite');
    expect(live.textContent).toBe('Time saved 1200 min (20.0 h); cost saved 54,000 SAR; PPCs avoided 3.8.');
  });
});

describe('<RoiCalculator> inputs (docs/product.md §3, §5)', () => {
  beforeEach(() => stubReducedMotion(true));

  it('labels every control with its unit and shows the defaults', () => {
    renderWidget(<RoiCalculator />);
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('ROI & Safety Calculator');
    expect(field(/^Number of cases$/).value).toBe('100');
    expect(field(/^Number of cases/).getAttribute('inputmode')).toBe('numeric');
    expect(field(/^OR cost per minute \(SAR\/min\)/).value).toBe('45');
    expect(field(/^Time to TOF ratio ≥ 0\.9 with neostigmine \(min\)/).value).toBe('15');
    expect(field(/^Time to TOF ratio ≥ 0\.9 with sugammadex \(min\)/).value).toBe('3');
    expect(field(/^Baseline PPC rate \(%\)/).value).toBe('10');
    expect(screen.getByRole('form', { name: 'Inputs' })).toBeTruthy();
  });

  it('sliders: native ranges 10–150 step 5 SAR and 0–20 step 1 %, with the value shown and said with its unit', () => {
    renderWidget(<RoiCalculator />);
    const [cost, ppc] = screen.getAllByRole('slider') as HTMLInputElement[];
    expect([cost!.type, cost!.min, cost!.max, cost!.step, cost!.getAttribute('aria-valuetext')]).toEqual([
      'range',
      '10',
      '150',
      '5',
      '45 SAR per minute',
    ]);
    expect([ppc!.type, ppc!.min, ppc!.max, ppc!.step, ppc!.getAttribute('aria-valuetext')]).toEqual([
      'range',
      '0',
      '20',
      '1',
      '10 percent',
    ]);
    expect(screen.getByText('45 SAR')).toBeTruthy();
    expect(screen.getByText('10%')).toBeTruthy();
    fireEvent.input(cost!, { target: { value: '100' } });
    expect(cost!.getAttribute('aria-valuetext')).toBe('100 SAR per minute');
    expect(screen.getByText('100 SAR')).toBeTruthy();
    expect(value('cost-saved')).toBe('120,000'); // 1200 × 100
  });

  it('Tab walks the controls in order, skipping the disabled risk ratio', async () => {
    renderWidget(<RoiCalculator />);
    const user = userEvent.setup();
    const order: (string | null)[] = [];
    for (let i = 0; i < 6; i++) {
      await user.tab();
      order.push(document.activeElement?.getAttribute('name') ?? document.activeElement?.textContent ?? null);
    }
    expect(order).toEqual([
      'cases',
      'orCostPerMinute',
      'timeNeostigmine',
      'timeProduct',
      'baselinePPCRate',
      'Download PDF',
    ]);
  });

  it('the risk ratio 0.62 is shown in a disabled field, with its source', () => {
    renderWidget(<RoiCalculator />);
    const ratio = field(/^PPC risk ratio/);
    expect(ratio.disabled).toBe(true);
    expect(ratio.value).toBe('0.62');
    const note = document.getElementById(ratio.getAttribute('aria-describedby')!);
    expect(note?.textContent).toBe('Fixed at 0.62, from a 2025 systematic review; not editable.');
  });

  it('attributes preset the inputs', () => {
    renderWidget(
      <RoiCalculator cases="250" orCostPerMinute="60" timeNeostigmine="18" timeProduct="2" baselinePpcRate="5" />,
    );
    expect([
      field(/^Number of cases/).value,
      field(/^OR cost per minute/).value,
      field(/with neostigmine/).value,
      field(/with sugammadex/).value,
      field(/^Baseline PPC rate/).value,
    ]).toEqual(['250', '60', '18', '2', '5']);
    // (18 − 2) × 250 = 4000 min = 66.7 h; × 60 = 240,000 SAR; 250 × 5% × 0.38 = 4.75 → 4.8
    expect(shown()).toEqual(['4000', '66.7 h of OR time freed', '240,000', '4.8']);
  });

  it('an attribute changed later updates its field and keeps the user’s other edits', () => {
    const { rerender } = renderWidget(<RoiCalculator cases="250" />);
    type(/with sugammadex/, '5');
    rerender(
      <WidgetRoot>
        <RoiCalculator cases="300" />
      </WidgetRoot>,
    );
    expect(field(/^Number of cases/).value).toBe('300');
    expect(field(/with sugammadex/).value).toBe('5');
  });

  it.each([
    ['cases', { cases: 'abc' }, 'numberOfCases', 100],
    ['cases', { cases: '-3' }, 'numberOfCases', 100],
    ['cases', { cases: '12.5' }, 'numberOfCases', 100],
    ['cases', { cases: '' }, 'numberOfCases', 100],
    ['cases', { cases: '0' }, 'numberOfCases', 0],
    ['cases', { cases: ' 40 ' }, 'numberOfCases', 40],
    ['or-cost-per-minute', { orCostPerMinute: '5' }, 'orCostPerMinute', 45], // below 10
    ['or-cost-per-minute', { orCostPerMinute: '155' }, 'orCostPerMinute', 45], // above 150
    ['or-cost-per-minute', { orCostPerMinute: '47' }, 'orCostPerMinute', 45], // off the 5-SAR grid
    ['or-cost-per-minute', { orCostPerMinute: '150' }, 'orCostPerMinute', 150],
    ['or-cost-per-minute', { orCostPerMinute: '10' }, 'orCostPerMinute', 10],
    ['time-neostigmine', { timeNeostigmine: 'x' }, 'timeNeostigmine', 15],
    ['time-neostigmine', { timeNeostigmine: '241' }, 'timeNeostigmine', 15],
    ['time-product', { timeProduct: '0' }, 'timeProduct', 0],
    ['baseline-ppc-rate', { baselinePpcRate: '21' }, 'baselinePPCRate', 10],
    ['baseline-ppc-rate', { baselinePpcRate: '-1' }, 'baselinePPCRate', 10],
    ['baseline-ppc-rate', { baselinePpcRate: '0' }, 'baselinePPCRate', 0],
    ['baseline-ppc-rate', { baselinePpcRate: '20' }, 'baselinePPCRate', 20],
  ] as const)('%s %j → %s %d', (_attribute, attributes, key, expected) => {
    expect(resolveRoiPresets(attributes)[key]).toBe(expected);
  });

  it('an invalid attribute falls back to the default in the form', () => {
    renderWidget(<RoiCalculator cases="lots" orCostPerMinute="47" baselinePpcRate="99" />);
    expect([
      field(/^Number of cases/).value,
      field(/^OR cost per minute/).value,
      field(/^Baseline PPC rate/).value,
    ]).toEqual(['100', '45', '10']);
  });
});

describe('<RoiCalculator> impact summary and chart (docs/product.md §2, §5; docs/clinical-reference.md §5)', () => {
  beforeEach(() => stubReducedMotion(true));

  it('bars of minutes / 20: 75% for 15 min and 15% for 3 min, each labelled, with a text alternative', () => {
    renderWidget(<RoiCalculator />);
    expect(screen.getByTestId('bar-neostigmine').style.inlineSize).toBe('75%');
    expect(screen.getByTestId('bar-product').style.inlineSize).toBe('15%');
    const chart = screen.getByRole('img', { name: 'Time to TOF ratio ≥ 0.9: neostigmine 15 min, sugammadex 3 min' });
    expect(chart.textContent).toContain('Neostigmine15 min');
    expect(chart.textContent).toContain('Sugammadex3 min');
  });

  it('a bar never runs past its track: 30 min → 100%', () => {
    renderWidget(<RoiCalculator />);
    type(/with neostigmine/, '30');
    expect(screen.getByTestId('bar-neostigmine').style.inlineSize).toBe('100%');
    expect(screen.getByRole('img').getAttribute('aria-label')).toBe(
      'Time to TOF ratio ≥ 0.9: neostigmine 30 min, sugammadex 3 min',
    );
  });

  it('says that cost saved is capacity, not cash, and that time is saved only with TOF ≥ 0.9 verified', () => {
    const { container } = renderWidget(<RoiCalculator />);
    const impact = container.querySelector('[part="impact"]')!;
    expect(within(impact as HTMLElement).getByRole('heading', { level: 3 }).textContent).toBe('Impact summary');
    expect(impact.textContent).toContain(
      'Across 100 cases, reversing with sugammadex instead of neostigmine ' +
        'frees about 20.0 hours of OR time (54,000 SAR of OR capacity) and ' +
        'avoids an estimated 3.8 postoperative pulmonary complications.',
    );
    expect(impact.textContent).toContain(
      'Most OR cost is fixed, so "cost saved" is OR capacity freed for other cases, not cash returned to the budget.',
    );
    expect(impact.textContent).toContain(
      'OR-time savings appear only when a TOF ratio ≥ 0.9 is verified with quantitative monitoring before extubation.',
    );
    expect(screen.getByTestId('cost-saved-note').textContent).toBe('OR capacity freed, not cash');
  });

  it('shows the disclaimer', () => {
    renderWidget(<RoiCalculator />);
    const note = screen.getByRole('note');
    expect(note.textContent).toContain('Estimates for planning only');
    expect(note.textContent).toContain('Decision support only');
  });
});

describe('<RoiCalculator> events', () => {
  beforeEach(() => stubReducedMotion(true));

  it('sends sgx-roi-changed once on first render and once per change, with the inputs and the result', () => {
    const sent = renderRecording(<RoiCalculator />);
    expect(sent).toEqual([
      {
        name: 'sgx-roi-changed',
        detail: {
          ...defaultsDetail,
          result: expect.objectContaining({
            timeSavedMin: 1200,
            costSavedSar: 54000,
            ppcsAvoided: 3.8,
            hoursFreed: 20,
          }),
        },
      },
    ]);
    type(/^Number of cases/, '200');
    expect(sent).toHaveLength(2);
    expect(sent[1]).toEqual({
      name: 'sgx-roi-changed',
      detail: {
        inputs: { ...defaultsDetail.inputs, numberOfCases: 200 },
        result: {
          kind: 'roi',
          timeSavedMin: 2400,
          costSavedSar: 108000,
          ppcsAvoided: 7.6,
          hoursFreed: 40,
          neostigmineBarPercent: 75,
          productBarPercent: 15,
          riskRatio: 0.62,
        },
      },
    });
  });

  it('sends nothing when the parsed inputs do not change ("200" → "200.5"), nor on animation frames', () => {
    vi.unstubAllGlobals(); // animate
    vi.useFakeTimers();
    const sent = renderRecording(<RoiCalculator cases="200" />);
    act(() => vi.advanceTimersByTime(1500));
    expect(sent).toHaveLength(1);
    type(/^Number of cases/, '200.5');
    act(() => vi.advanceTimersByTime(1500));
    expect(sent).toHaveLength(1);
  });
});

describe('<RoiCalculator> Download PDF (docs/product.md §4, §7, §8)', () => {
  beforeEach(() => {
    stubReducedMotion(true);
    pdf.fail = false;
    pdf.saved = [];
    pdf.texts = [];
  });

  it('loads jsPDF on the click, shows a busy button, saves sugammadex-roi-report.pdf with the figures', async () => {
    const loadsBefore = pdf.loads;
    renderWidget(<RoiCalculator />);
    expect(pdf.loads).toBe(loadsBefore); // rendering did not import jspdf
    const button = screen.getByRole('button', { name: 'Download PDF' });
    fireEvent.click(button);
    expect(button.hasAttribute('disabled')).toBe(true);
    expect(button.getAttribute('aria-busy')).toBe('true');
    expect(button.querySelector('[data-spinner]')).not.toBeNull();
    // the first load of jsPDF (the real library) can take seconds on a busy test machine
    await waitFor(() => expect(pdf.saved).toEqual(['sugammadex-roi-report.pdf']), { timeout: 10_000 });
    await waitFor(() => expect(button.hasAttribute('disabled')).toBe(false));
    expect(button.getAttribute('aria-busy')).toBeNull();
    const text = pdf.texts.join('\n');
    for (const figure of [
      'Number of cases: 100',
      'Time saved: 1200 min (20.0 h of OR time freed)',
      'Cost saved: 54,000 SAR',
      'PPCs avoided: 3.8',
    ])
      expect(text).toContain(figure);
    expect(text).toMatch(/Generated: \d{4}-\d{2}-\d{2} \d{2}:\d{2}/);
  });

  it('the report has the current inputs', async () => {
    renderWidget(<RoiCalculator />);
    type(/^Number of cases/, '200');
    fireEvent.click(screen.getByRole('button', { name: 'Download PDF' }));
    await waitFor(() => expect(pdf.saved).toHaveLength(1), { timeout: 10_000 });
    const text = pdf.texts.join('\n');
    expect(text).toContain('Time saved: 2400 min (40.0 h of OR time freed)');
    expect(text).toContain('Cost saved: 108,000 SAR');
    expect(text).toContain('PPCs avoided: 7.6');
  });

  it('failure: alert "Error generating PDF. Please try again.", logged, sgx-error, button usable', async () => {
    pdf.fail = true;
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => {});
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const sent = renderRecording(<RoiCalculator />);
    const button = screen.getByRole('button', { name: 'Download PDF' });
    fireEvent.click(button);
    await waitFor(() => expect(alert).toHaveBeenCalledTimes(1));
    expect(alert).toHaveBeenCalledWith('Error generating PDF. Please try again.');
    expect(log).toHaveBeenCalledWith(expect.objectContaining({ message: 'jsPDF could not start' }));
    expect(sent.filter((event) => event.name === 'sgx-error')).toEqual([
      { name: 'sgx-error', detail: { source: 'roi-calculator', message: 'jsPDF could not start' } },
    ]);
    expect(pdf.saved).toEqual([]);
    await waitFor(() => expect(button.hasAttribute('disabled')).toBe(false));
  });

  it('no module of the widget imports jspdf statically; only the click handler imports it', () => {
    const folder = dirname(fileURLToPath(import.meta.url));
    const sources = readdirSync(folder).filter((name) => /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name));
    expect(sources).toContain('RoiCalculator.tsx');
    const imports: string[] = [];
    for (const name of sources) {
      const source = readFileSync(join(folder, name), 'utf8');
      // A value import of jspdf (import … from 'jspdf' other than `import type`, or a bare import).
      expect(source, name).not.toMatch(/^\s*import\s+(?!type\b)[^;]*from\s*['"]jspdf['"]/m);
      expect(source, name).not.toMatch(/^\s*import\s*['"]jspdf['"]/m);
      if (source.includes("import('jspdf')")) imports.push(name);
    }
    // jsPDF is imported in one place, the shared loader (downloaded once, fetched again after a failure)
    expect(imports).toEqual([]);
    const loader = readFileSync(join(folder, '../shared/pdf/load-jspdf.ts'), 'utf8');
    expect(loader).toContain("import('jspdf')");
    const component = readFileSync(join(folder, 'RoiCalculator.tsx'), 'utf8');
    const handler = component.slice(
      component.indexOf('const downloadPdf = async'),
      component.indexOf('const scrollToCalculator'),
    );
    expect(handler).toContain('loadJsPdf()'); // with the report's own module, in parallel
    expect(component.split('loadJsPdf()')).toHaveLength(2);
  });
});

describe('<RoiCalculator> E-mail Report (docs/product.md §7)', () => {
  beforeEach(() => stubReducedMotion(true));

  it('opens a mailto: URL with no recipient and the encoded subject and body', () => {
    const open = vi.spyOn(mailNavigation, 'open').mockImplementation(() => {});
    renderWidget(<RoiCalculator />);
    type(/^Number of cases/, '200');
    fireEvent.click(screen.getByRole('button', { name: 'E-mail Report' }));
    expect(open).toHaveBeenCalledTimes(1);
    const url = open.mock.calls[0]![0];
    expect(url.startsWith('mailto:?subject=Sugammadex%20ROI%20%26%20Safety%20Calculator%20-%20estimate&body=')).toBe(
      true,
    );
    const body = decodeURIComponent(url.split('&body=')[1]!);
    expect(body).toContain('- Number of cases: 200\r\n');
    expect(body).toContain(
      '- Time saved: 2400 min (40.0 h of OR time freed)\r\n- Cost saved: ' +
        '108,000 SAR (OR capacity freed, not cash)\r\n- PPCs avoided: 7.6',
    );
  });
});

describe('<RoiCalculator> call to action (docs/product.md §2)', () => {
  beforeEach(() => stubReducedMotion(true));
  afterEach(() => document.getElementById('calculator')?.remove());

  it('"Calculate Dose" smooth-scrolls to #calculator in the host document', () => {
    const target = document.body.appendChild(Object.assign(document.createElement('section'), { id: 'calculator' }));
    const scrollIntoView = vi.fn();
    target.scrollIntoView = scrollIntoView;
    const { container } = renderWidget(<RoiCalculator />);
    fireEvent.click(
      within(container.querySelector<HTMLElement>('[part="cta"]')!).getByRole('button', { name: 'Calculate Dose' }),
    );
    expect(scrollIntoView).toHaveBeenCalledWith({ behavior: 'smooth' });
  });

  it('the target can be another id (calculator-target), and a missing target does nothing', () => {
    const other = document.body.appendChild(Object.assign(document.createElement('div'), { id: 'dose-tool' }));
    other.scrollIntoView = vi.fn();
    renderWidget(<RoiCalculator calculatorTarget="#dose-tool" />);
    fireEvent.click(screen.getByRole('button', { name: 'Calculate Dose' }));
    expect(other.scrollIntoView).toHaveBeenCalledTimes(1);
    other.remove();
    expect(() => fireEvent.click(screen.getByRole('button', { name: 'Calculate Dose' }))).not.toThrow();
  });

  it('"Download HCP Guide" downloads /hcp-guide.pdf, or the guide-href given', () => {
    const { rerender } = renderWidget(<RoiCalculator />);
    const link = screen.getByRole('link', { name: 'Download HCP Guide' });
    expect(link.getAttribute('href')).toBe('/hcp-guide.pdf');
    expect(link.hasAttribute('download')).toBe(true);
    rerender(
      <WidgetRoot>
        <RoiCalculator guideHref="/files/guide-2025.pdf" />
      </WidgetRoot>,
    );
    expect(screen.getByRole('link', { name: 'Download HCP Guide' }).getAttribute('href')).toBe('/files/guide-2025.pdf');
  });
});

describe('<RoiCalculator> layout and parts (docs/product.md §2)', () => {
  beforeEach(() => stubReducedMotion(true));

  it('exposes its main parts for ::part() styling', () => {
    const { container } = renderWidget(<RoiCalculator />);
    const parts = [...container.querySelectorAll('[part]')].flatMap((element) =>
      element.getAttribute('part')!.split(' '),
    );
    for (const part of [
      'container',
      'form',
      'field',
      'results',
      'result',
      'impact',
      'chart',
      'bar',
      'actions',
      'button',
      'cta',
      'guide-link',
      'disclaimer',
    ])
      expect(parts).toContain(part);
    expect(container.querySelectorAll('[part="result"]')).toHaveLength(3);
  });
});
