import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { BASELINE_ENTRY, buildWidgets } from '../scripts/build-widgets.mjs';

// Issue 8's size budgets, on the bundles `npm start` serves (deterministic, so they run in npm test).
const KIB = 1024;
export const BUDGETS_KIB_GZIP = { elementOwnCode: 15, standaloneDoseCalculator: 90, hostInitialJs: 120 } as const;

const gzipKib = async (file: string) => gzipSync(await readFile(file), { level: 9 }).length / KIB;
let baselineKib: number;
let scratch: string;

beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'sgx-sizes-'));
  await buildWidgets(scratch, [BASELINE_ENTRY]);
  baselineKib = await gzipKib(path.join(scratch, `${BASELINE_ENTRY}.js`));
}, 120_000);
afterAll(() => rm(scratch, { recursive: true, force: true }));

/** The host page's initial JavaScript: the entry script of index.html and every chunk it imports statically. */
async function initialGraph(siteDir: string): Promise<string[]> {
  const html = await readFile(path.join(siteDir, 'index.html'), 'utf8');
  const entry = /<script type="module"[^>]*src="\/([^"]+)"/.exec(html)?.[1];
  if (!entry) throw new Error('no module script in index.html');
  const seen = new Set<string>();
  const visit = async (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const code = await readFile(path.join(siteDir, file), 'utf8');
    // static imports only: `import … from "./x.js"` and `import "./x.js"` (dynamic `import("…")` excluded);
    // the minifier may quote with backticks
    for (const match of code.matchAll(/(?:^|[;\n}])\s*import\s*(?:[^`'"();]*?from\s*)?[`"']\.\/([^`"']+\.js)[`"']/g)) {
      await visit(path.join(path.dirname(file), match[1]!));
    }
  };
  await visit(entry);
  return [...seen];
}

describe('size budgets (gzip)', () => {
  it(`each element's own code ≤ ${BUDGETS_KIB_GZIP.elementOwnCode} KiB beyond the shared runtime`, async () => {
    const { widgetsDir } = inject('e2eBuild');
    const own: Record<string, number> = {};
    for (const name of ['sgx-dose-calculator', 'sgx-bradycardia-advisor', 'sgx-roi-calculator', 'sgx-access-portal']) {
      own[name] = Number(((await gzipKib(path.join(widgetsDir, `${name}.js`))) - baselineKib).toFixed(1));
    }
    console.log(`shared runtime ${baselineKib.toFixed(1)} KiB gzip; own code`, own);
    for (const [name, kib] of Object.entries(own))
      expect([name, kib <= BUDGETS_KIB_GZIP.elementOwnCode]).toEqual([name, true]);
  });

  it(`the standalone dose calculator is at most ${BUDGETS_KIB_GZIP.standaloneDoseCalculator} KiB`, async () => {
    const kib = await gzipKib(path.join(inject('e2eBuild').widgetsDir, 'sgx-dose-calculator.js'));
    expect(kib).toBeLessThanOrEqual(BUDGETS_KIB_GZIP.standaloneDoseCalculator);
  });

  it(`the host page's initial JS ≤ ${BUDGETS_KIB_GZIP.hostInitialJs} KiB, without jsPDF`, async () => {
    const { siteDir } = inject('e2eBuild');
    const files = await initialGraph(siteDir);
    let total = 0;
    for (const file of files) total += await gzipKib(path.join(siteDir, file));
    console.log(`host initial JS: ${files.join(', ')} = ${total.toFixed(1)} KiB gzip`);
    expect(total).toBeLessThanOrEqual(BUDGETS_KIB_GZIP.hostInitialJs);
    expect(files.filter((file) => /jspdf|html2canvas|purify/i.test(file))).toEqual([]);
  });

  it('the element bundles reach jsPDF only through dynamic imports', async () => {
    const { widgetsDir } = inject('e2eBuild');
    // the entry bundles (what a page loads first) never import a jsPDF chunk statically
    const files = (await readdir(widgetsDir)).filter((file) => file.endsWith('.js'));
    expect(files).toHaveLength(5);
    for (const file of files) {
      const code = await readFile(path.join(widgetsDir, file), 'utf8');
      expect([file, /from\s*[`"'][^`"']*jspdf[^`"']*[`"']/.test(code)]).toEqual([file, false]);
    }
    const roi = await readFile(path.join(widgetsDir, 'sgx-roi-calculator.js'), 'utf8');
    expect(/import\([`"']\.\/chunks\/jspdf[^`"']*[`"']\)/.test(roi)).toBe(true);
  });
});
