// Page speed for `npm run bench`: Lighthouse (mobile and desktop presets) on Debian's Chromium
// against the production server, and the "Calculate Dose" click-to-next-paint time under a 4x CPU
// throttle, measured with playwright-core (Event Timing: the click's duration up to the next paint).
import { existsSync } from 'node:fs';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { chromium } from 'playwright-core';

const CHROME_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
];

export function chromePath() {
  const found = [process.env.CHROME_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
    (candidate) => candidate && existsSync(candidate),
  );
  if (!found) throw new Error('Chromium not found: set CHROME_PATH (or run npm run test:e2e once, which installs it).');
  return found;
}

export async function lighthouseRuns(url) {
  const chrome = await chromeLauncher.launch({ chromePath: chromePath(), chromeFlags: CHROME_FLAGS });
  try {
    const results = {};
    for (const [name, config] of [
      ['mobile', undefined],
      ['desktop', desktopConfig],
    ]) {
      const run = await lighthouse(
        url,
        {
          port: chrome.port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: ['performance', 'accessibility', 'best-practices'],
        },
        config,
      );
      const { categories, audits } = run.lhr;
      results[name] = {
        performance: Math.round(categories.performance.score * 100),
        accessibility: Math.round(categories.accessibility.score * 100),
        bestPractices: Math.round(categories['best-practices'].score * 100),
        lcpMs: Math.round(audits['largest-contentful-paint'].numericValue),
        tbtMs: Math.round(audits['total-blocking-time'].numericValue),
        cls: Number(audits['cumulative-layout-shift'].numericValue.toFixed(3)),
      };
    }
    return results;
  } finally {
    await chrome.kill();
  }
}

/** Median over a few clicks of "Calculate Dose" → next paint, with the CPU slowed 4x. */
export async function clickToPaint(url, clicks = 7) {
  const browser = await chromium.launch({ executablePath: chromePath(), args: CHROME_FLAGS });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(url);
    await page.waitForFunction(() => document.querySelector('sgx-dose-calculator')?.shadowRoot?.childElementCount);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    const calculator = page.locator('sgx-dose-calculator');
    await calculator.scrollIntoViewIfNeeded();
    await calculator.getByLabel(/^Body weight/).fill('70');
    await calculator.getByLabel(/^TOF count/).selectOption('2');
    await page.evaluate(() => {
      window.__clicks = [];
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) if (entry.name === 'click') window.__clicks.push(entry.duration);
      }).observe({ type: 'event', durationThreshold: 0, buffered: false });
    });
    for (let index = 0; index < clicks; index += 1) {
      await calculator.getByLabel(/^Body weight/).fill(String(60 + index));
      await calculator.getByRole('button', { name: 'Calculate Dose' }).click();
      await page.waitForTimeout(300);
    }
    const durations = (await page.evaluate(() => window.__clicks)).sort((a, b) => a - b);
    return {
      clicks: durations.length,
      medianMs: durations[Math.floor(durations.length / 2)] ?? null,
      maxMs: durations.at(-1) ?? null,
    };
  } finally {
    await browser.close();
  }
}
