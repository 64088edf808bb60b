import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { build, type Rollup } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './browser.ts';
import { serveFiles } from './static-server.ts';

// clinical/ is shared by the widgets (browser) and the API (Node). This builds it for the browser
// the way the widget bundles will, and runs it in real Chromium: no Node globals may be needed.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

let browser: Browser;
let server: Awaited<ReturnType<typeof serveFiles>>;

beforeAll(async () => {
  const output = (await build({
    configFile: false,
    logLevel: 'silent',
    build: {
      write: false,
      minify: true,
      lib: { entry: path.join(root, 'clinical/index.ts'), formats: ['es'], fileName: 'clinical' },
    },
  })) as Rollup.RollupOutput[];
  const chunk = output[0]!.output.find((item): item is Rollup.OutputChunk => item.type === 'chunk' && item.isEntry)!;
  const page = `<!doctype html><meta charset="utf-8"><title>clinical</title><pre id="out"></pre>
<script type="module">
  import { calculateDose, assessBradycardia, calculateRoi } from '/clinical.js';
  const base = { ageGroup: 'adult', bodyWeight: 70, nmbaType: 'rocuronium', creatinine: 100, tofCount: '', ptc: null };
  const dose = (changes) => calculateDose({ ...base, rsiScenario: false, dialysis: false, ...changes });
  const lines = [];
  const cases = [
    ['tof2', { tofCount: '2' }],
    ['tof0', { tofCount: '0' }],
    ['rsi80', { bodyWeight: 80, rsiScenario: true }],
    ['none', {}],
    ['weight0', { bodyWeight: 0 }],
  ];
  for (const [label, changes] of cases) {
    const r = dose(changes);
    const figures = (r) =>
      [r.totalDoseMg + ' mg', r.vials + ' vials', r.volumeMl.toFixed(1) + ' mL', r.costSar.toFixed(2) + ' SAR'];
    const why = (r) => r.kind + ' ' + (r.reason ?? r.issues?.[0]?.message ?? '');
    lines.push(label + ': ' + (r.kind === 'dose' ? figures(r).join(', ') : why(r)));
  }
  const risk = assessBradycardia({
    weight: 70, age: 45, baselineHr: 45, cardiacHistory: 'av_block', betaBlocker: true, dexmedetomidine: false,
    digoxin: false, amiodarone: false, highDoseOpioids: false, vagalStimulus: false, depth: 'tof_2_plus',
    nmba: 'rocuronium', creatinine: 90,
  });
  lines.push('risk: ' + risk.riskBand + ' ' + risk.riskPercent + '%');
  const roi = calculateRoi({
    numberOfCases: 100, orCostPerMinute: 45, timeNeostigmine: 15, timeProduct: 3, baselinePPCRate: 10,
  });
  lines.push('roi: ' + [roi.timeSavedMin, roi.costSavedSar, roi.ppcsAvoided, roi.hoursFreed].join(' '));
  document.getElementById('out').textContent = lines.join('\\n');
</script>`;
  server = await serveFiles({
    '/': { body: page, type: 'text/html' },
    '/clinical.js': { body: chunk.code, type: 'text/javascript' },
  });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('clinical/ in a real browser', () => {
  it('computes the worked examples with no page error', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(server.url);
    await page.waitForFunction(() => document.getElementById('out')?.textContent !== '');
    expect(await page.textContent('#out')).toBe(
      [
        'tof2: 140 mg, 1 vials, 1.4 mL, 147.64 SAR',
        'tof0: 280 mg, 2 vials, 2.8 mL, 295.28 SAR',
        'rsi80: 1280 mg, 7 vials, 12.8 mL, 1033.48 SAR',
        'none: unable_to_calculate Please specify block depth (TOF count or PTC)',
        'weight0: invalid_input Please enter a valid body weight',
        'risk: HIGH 23.4%',
        'roi: 1200 54000 3.8 20',
      ].join('\n'),
    );
    expect(errors).toEqual([]);
    await page.close();
  });
});
