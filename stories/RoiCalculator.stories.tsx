import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, waitFor } from 'storybook/test';
import { expectExactText, expectText, localeKit, named, startingWith, type LocaleKit } from './locale.tsx';
import { shadowOf } from './shadow.ts';

interface Args {
  cases: string;
  orCostPerMinute: string;
  timeNeostigmine: string;
  timeProduct: string;
  baselinePpcRate: string;
}

const meta = {
  title: 'Elements/ROI Calculator',
  tags: ['autodocs'],
  args: { cases: '', orCostPerMinute: '', timeNeostigmine: '', timeProduct: '', baselinePpcRate: '' },
  argTypes: {
    cases: {
      control: 'text',
      description: '`cases` attribute: number of cases, 0–1,000,000 (default 100; anything else falls back to it)',
    },
    orCostPerMinute: {
      control: 'text',
      description: '`or-cost-per-minute` attribute: SAR per minute, 10–150 in steps of 5 (default 45)',
    },
    timeNeostigmine: {
      control: 'text',
      description: '`time-neostigmine` attribute: minutes to TOF ratio ≥ 0.9 with neostigmine, 0–240 (default 15)',
    },
    timeProduct: {
      control: 'text',
      description: '`time-product` attribute: minutes to TOF ratio ≥ 0.9 with sugammadex, 0–240 (default 3)',
    },
    baselinePpcRate: { control: 'text', description: '`baseline-ppc-rate` attribute: percent, 0–20 (default 10)' },
  },
  render: (args) => (
    <sgx-roi-calculator
      cases={args.cases || undefined}
      or-cost-per-minute={args.orCostPerMinute || undefined}
      time-neostigmine={args.timeNeostigmine || undefined}
      time-product={args.timeProduct || undefined}
      baseline-ppc-rate={args.baselinePpcRate || undefined}
    />
  ),
} satisfies Meta<Args>;
export default meta;
type Story = StoryObj<typeof meta>;

const TAG = 'sgx-roi-calculator';
/** The count-up runs 60 steps of 25 ms (1.5 s); leave room for a slow jsdom run. */
const COUNT_UP = { timeout: 4000 };

/**
 * Waits for the count-up to end on the expected figures, then checks the notes and the announcement
 * (in the story's locale; the same figures in both).
 */
async function expectFigures(
  canvasElement: HTMLElement,
  { t }: LocaleKit,
  figures: { time: string; hours: string; cost: string; ppcs: string },
) {
  const { screen } = await shadowOf(canvasElement, TAG);
  await waitFor(() => {
    // Exact text (toHaveTextContent matches substrings: "0" would accept "1200").
    expectExactText(screen.getByTestId('time-saved-value'), figures.time);
    expectExactText(screen.getByTestId('cost-saved-value'), figures.cost);
    expectExactText(screen.getByTestId('ppcs-avoided-value'), figures.ppcs);
  }, COUNT_UP);
  expectExactText(screen.getByTestId('time-saved-note'), t.roi.hoursFreed(figures.hours));
  // The final figures, said once for screen readers.
  expectText(
    screen.getByRole('group', { name: t.roi.resultsLabel }),
    t.roi.resultsAnnouncement(figures.time, figures.hours, figures.cost, figures.ppcs),
  );
  return screen;
}

export const Defaults: Story = {
  play: async ({ canvasElement, globals }) => {
    const kit = localeKit(globals);
    const { t } = kit;
    // Defaults: 100 cases, 45 SAR/min, 15 min (neostigmine), 3 min (sugammadex), PPC rate 10 %.
    // Time saved (15 − 3) × 100 = 1200 min = 20.0 h; cost 1200 × 45 = 54,000 SAR;
    // PPCs avoided 100 × 10 % × (1 − 0.62) = 100 × 0.10 × 0.38 = 3.8.
    const screen = await expectFigures(canvasElement, kit, {
      time: '1200',
      hours: '20.0',
      cost: '54,000',
      ppcs: '3.8',
    });
    await expect(screen.getByLabelText(startingWith(t.roi.numberOfCases))).toHaveValue('100');
    // Bars: minutes / 20 min full scale → 15 / 20 = 75 %, 3 / 20 = 15 %.
    await expect(screen.getByRole('img', { name: named(t.roi.chartLabel(15, 3)) })).toBeInTheDocument();
    await expect(screen.getByTestId('bar-neostigmine').style.getPropertyValue('inline-size')).toBe('75%');
    await expect(screen.getByTestId('bar-product').style.getPropertyValue('inline-size')).toBe('15%');
  },
};

export const EdgeValues: Story = {
  name: 'Edge values (cases="0")',
  args: { cases: '0' },
  play: async ({ canvasElement, globals }) => {
    const kit = localeKit(globals);
    // 0 cases: (15 − 3) × 0 = 0 min = 0.0 h; 0 × 45 = 0 SAR; 0 × 10 % × 0.38 = 0.0 PPCs.
    const screen = await expectFigures(canvasElement, kit, { time: '0', hours: '0.0', cost: '0', ppcs: '0.0' });
    await expect(screen.getByLabelText(startingWith(kit.t.roi.numberOfCases))).toHaveValue('0');
  },
};

export const Maximums: Story = {
  name: 'Maximum sliders (150 SAR/min, 20 %, 1000 cases)',
  args: { cases: '1000', orCostPerMinute: '150', baselinePpcRate: '20' },
  play: async ({ canvasElement, globals }) => {
    const kit = localeKit(globals);
    const { t } = kit;
    // Time saved (15 − 3) × 1000 = 12000 min = 200.0 h; cost 12000 × 150 = 1,800,000 SAR;
    // PPCs avoided 1000 × 20 % × 0.38 = 76.0.
    const screen = await expectFigures(canvasElement, kit, {
      time: '12000',
      hours: '200.0',
      cost: '1,800,000',
      ppcs: '76.0',
    });
    await expect(screen.getByRole('slider', { name: startingWith(t.roi.orCostPerMinute) })).toHaveValue('150');
    await expect(screen.getByRole('slider', { name: startingWith(t.roi.baselinePpcRate) })).toHaveValue('20');
  },
};

export const InvalidAttributes: Story = {
  name: 'Invalid attribute (cases="abc" → default 100)',
  args: { cases: 'abc' },
  play: async ({ canvasElement, globals }) => {
    const kit = localeKit(globals);
    // A preset takes plain digits only: "abc" falls back to the default 100 cases, so the defaults' figures show.
    const screen = await expectFigures(canvasElement, kit, {
      time: '1200',
      hours: '20.0',
      cost: '54,000',
      ppcs: '3.8',
    });
    await expect(screen.getByLabelText(startingWith(kit.t.roi.numberOfCases))).toHaveValue('100');
  },
};
