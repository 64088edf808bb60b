import type { jsPDF as JsPdf } from 'jspdf';
import type { PdfDocument, PdfSection } from '../../host/content/types.ts';
import { renderPdfWithText } from '../../host/pdfs/render-pdf.ts';
import type { ExcludedConstant } from './registry.ts';
import { CLINICAL_RULES, NOT_LISTED } from './rules.ts';
import { verifyRegistry, type RegistryCheck, type TestResult, type VerifiedRule } from './verify.ts';

export { CLINICAL_RULES, NOT_LISTED, verifyRegistry };

/**
 * The clinical verification report (README "Clinical verification"): what the build checked, as HTML and as a
 * PDF. Entry point for scripts/build-clinical-verification.mjs.
 */

export const REPORT_HTML_FILE = 'clinical-verification.html';
export const REPORT_PDF_FILE = 'clinical-verification.pdf';
export const REPORT_TITLE = 'Clinical verification report';

/** The files of every test the registry lists, in order: what the build runs. */
export function testFilesOf(rules = CLINICAL_RULES): string[] {
  return [...new Set(rules.flatMap((rule) => rule.tests.map((reference) => reference.split(' > ')[0]!)))].sort();
}

/** This build: the release, when, from which commit, and the test run. */
export interface BuildFacts {
  version: string;
  /** ISO 8601, UTC. */
  builtAt: string;
  /** The commit built, and whether the working tree had changes; null outside a git checkout. */
  commit: { id: string; modified: boolean } | null;
  testRun: {
    command: string;
    vitest: string;
    files: readonly string[];
    total: number;
    passed: number;
    durationMs: number;
  };
}

export interface VerificationReport extends BuildFacts {
  check: RegistryCheck;
  notListed: readonly ExcludedConstant[];
  /** The tests the rows list, numbered in their first appearance (T1, T2, …), with their results. */
  tests: { number: number; reference: string; results: readonly TestResult[]; passed: boolean }[];
}

export function buildReport(facts: BuildFacts, check: RegistryCheck, notListed = NOT_LISTED): VerificationReport {
  const tests: VerificationReport['tests'] = [];
  const numbers = new Map<string, number>();
  for (const row of check.rows) {
    for (const test of row.tests) {
      if (numbers.has(test.reference)) continue;
      numbers.set(test.reference, tests.length + 1);
      tests.push({ number: tests.length + 1, reference: test.reference, results: test.results, passed: test.passed });
    }
  }
  return { ...facts, check, notListed, tests };
}

/** The rows by area, in the registry's order. */
function byArea(rows: readonly VerifiedRule[]): [string, VerifiedRule[]][] {
  const areas = new Map<string, VerifiedRule[]>();
  for (const row of rows) areas.set(row.rule.area, [...(areas.get(row.rule.area) ?? []), row]);
  return [...areas];
}

const date = (iso: string) => iso.slice(0, 10);
const commitText = (commit: BuildFacts['commit']) =>
  commit ? `commit ${commit.id}${commit.modified ? ' with uncommitted changes' : ''}` : 'not built from a git checkout';
const status = (passed: boolean) => (passed ? 'passed' : 'FAILED');
const testName = (reference: string) => reference.split(' > ').slice(1).join(' > ');
const testFile = (reference: string) => reference.split(' > ')[0]!;

function summary(report: VerificationReport): string {
  const rows = report.check.rows;
  const verified = rows.filter((row) => row.passed).length;
  const run = report.testRun;
  return (
    `${rows.length} rules and numbers, ${verified} verified: each value read from the code of this release, ` +
    `found in its source, and checked by tests that passed in this build. ${report.tests.length} tests are listed ` +
    `against them; the build ran ${run.total} tests in ${run.files.length} files (vitest ${run.vitest}, ` +
    `${(run.durationMs / 1000).toFixed(1)} s), ${run.passed} passed.`
  );
}

const HOW_TO_READ = [
  'Each row is one clinical rule or number the product shows. "Value" is what the code of this release holds, ' +
    'read from the code when the report was built (it is not typed into the report). "Source" is the section of ' +
    'docs/clinical-reference.md (or docs/product.md, for the limits the product specification sets) and the ' +
    'words it says there: the build checked that those words are in that section and that they state the value. ' +
    '"Code" names the constant or text that holds it. "Tests" are the automated tests that check it, each run ' +
    'during this build, with its result.',
  'The build stops, and no release is made, when a row has no source or no test, when a source does not say what ' +
    'the row quotes or does not state its value, when a listed test does not exist or did not pass, or when a ' +
    'constant of clinical/constants.ts or clinical/emergency-constants.ts is in no row and not listed below ' +
    'with a reason.',
  "To sign: check each row's source against the references it cites (docs/clinical-reference.md names them), " +
    'and that the release version and date above are those of the release under review. "Not listed" at the end ' +
    'shows the numbers deliberately left out, and the ones the product uses that the reference does not source yet.',
  "Not covered yet: the statements of the product page's safety section and its PDFs (coagulation, contraception, " +
    'recurrence, displacement, adverse reactions; docs/clinical-reference.md §2), which are page content rather ' +
    'than values of the clinical code.',
];

// ---- HTML ----

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);

const STYLE = `
  body { font: 15px/1.5 system-ui, -apple-system, 'Segoe UI', Roboto, 'Noto Sans', Arial, sans-serif; color: #0f172a;
    margin: 0; background: #f8fafc; }
  main { max-width: 1280px; margin: 0 auto; padding: 24px 20px 48px; }
  h1 { font-size: 1.8rem; margin: 0 0 4px; color: #115e59; }
  h2 { font-size: 1.25rem; margin: 32px 0 8px; }
  .meta { color: #475569; margin: 0 0 16px; }
  .summary { background: #fff; border: 1px solid #cbd5e1; border-inline-start: 5px solid #0f766e; border-radius: 8px;
    padding: 12px 16px; }
  .summary.failed { border-inline-start-color: #b91c1c; }
  table { border-collapse: collapse; width: 100%; background: #fff; font-size: 0.9rem; table-layout: fixed; }
  caption { text-align: start; font-weight: 700; padding: 8px 0; }
  th, td { border: 1px solid #cbd5e1; padding: 6px 8px; vertical-align: top; text-align: start;
    overflow-wrap: break-word; }
  th { background: #e2e8f0; }
  td.value { font-weight: 700; }
  code { font-size: 0.85em; word-break: break-word; }
  q { font-style: italic; }
  ul { margin: 0; padding-inline-start: 1.1em; }
  .passed { color: #166534; font-weight: 700; }
  .failed { color: #b91c1c; font-weight: 700; }
  .file { color: #475569; font-size: 0.85em; }
  a { color: #115e59; }
`;

/** The same columns in every area's table. */
const COLUMN_WIDTHS_PERCENT = [19, 10, 24, 15, 25, 7];
const COLUMNS =
  `<colgroup>${COLUMN_WIDTHS_PERCENT.map((width) => `<col style="width: ${width}%">`).join('')}` + '</colgroup>';

function rowHtml(row: VerifiedRule, numberOf: (reference: string) => number): string {
  const quotes = row.source.quotes.map((quote) => `<q>${escapeHtml(quote)}</q>`).join('<br>');
  const tests = row.tests
    .map(
      (test) =>
        `<li>T${numberOf(test.reference)} <span class="${status(test.passed).toLowerCase()}">${status(test.passed)}` +
        `</span>: ${escapeHtml(testName(test.reference))} <span class="file">(${escapeHtml(test.file)})</span></li>`,
    )
    .join('');
  return (
    `<tr id="${escapeHtml(row.rule.id)}">` +
    `<td>${escapeHtml(row.rule.rule)}<br><code>${escapeHtml(row.rule.id)}</code></td>` +
    `<td class="${typeof row.value === 'number' || (row.value ?? '').length < 24 ? 'value' : ''}">` +
    `${escapeHtml(row.shown)}</td>` +
    `<td>${escapeHtml(row.source.heading)}<br><code>${escapeHtml(`${row.source.document}#${row.source.anchor}`)}` +
    `</code><br>${quotes}</td>` +
    `<td><code>${escapeHtml(row.code.label)}</code><br><span class="file">${escapeHtml(row.code.file)}</span></td>` +
    `<td><ul>${tests}</ul></td>` +
    `<td class="${status(row.passed).toLowerCase()}">${status(row.passed)}</td>` +
    '</tr>'
  );
}

export function renderReportHtml(report: VerificationReport): string {
  const numbers = new Map(report.tests.map((test) => [test.reference, test.number]));
  const numberOf = (reference: string) => numbers.get(reference) ?? 0;
  const allPassed = report.check.problems.length === 0 && report.check.rows.every((row) => row.passed);
  const areas = byArea(report.check.rows)
    .map(
      ([area, rows]) =>
        `<table><caption>${escapeHtml(area)}</caption>${COLUMNS}<thead><tr><th scope="col">Rule</th>` +
        '<th scope="col">Value</th><th scope="col">Source</th><th scope="col">Code</th><th scope="col">Tests</th>' +
        `<th scope="col">Result</th></tr></thead><tbody>${rows.map((row) => rowHtml(row, numberOf)).join('')}` +
        '</tbody></table>',
    )
    .join('\n');
  const notListed = (kind: ExcludedConstant['kind'], caption: string) =>
    `<table><caption>${caption}</caption><thead><tr><th scope="col">Code</th><th scope="col">Why</th></tr></thead>` +
    `<tbody>${report.notListed
      .filter((entry) => entry.kind === kind)
      .map(
        (entry) =>
          `<tr><td>${entry.names.map((name) => `<code>${escapeHtml(name)}</code>`).join(', ')}<br>` +
          `<span class="file">${escapeHtml(entry.file)}</span></td><td>${escapeHtml(entry.reason)}</td></tr>`,
      )
      .join('')}</tbody></table>`;
  const problems = report.check.problems.length
    ? `<h2>Problems</h2><ul>${report.check.problems.map((problem) => `<li>${escapeHtml(problem)}</li>`).join('')}</ul>`
    : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${REPORT_TITLE}, release ${escapeHtml(report.version)}</title>
<meta name="robots" content="noindex">
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>${REPORT_TITLE}</h1>
<p class="meta">Sugammadex-class reversal: product site and clinical tools. Release <strong data-release>${escapeHtml(
    report.version,
  )}</strong>, built <time datetime="${escapeHtml(report.builtAt)}">${escapeHtml(
    report.builtAt.replace('T', ' ').replace(/\.\d+Z$/, ' UTC'),
  )}</time> (${escapeHtml(commitText(report.commit))}).
<a href="/${REPORT_PDF_FILE}" download>Download as PDF</a> · <a href="/">Back to the site</a></p>
<p class="summary${allPassed ? '' : ' failed'}" data-summary>${escapeHtml(summary(report))}</p>
<h2>How to read this report</h2>
${HOW_TO_READ.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`).join('\n')}
${problems}
<h2>Rules and numbers</h2>
${areas}
<h2>Not listed</h2>
${notListed('unsourced', 'Used by the product, not yet sourced in docs/')}
${notListed('not-clinical', 'Not clinical numbers')}
<h2>The test run</h2>
<p>Command: <code>${escapeHtml(report.testRun.command)}</code>. Files: ${report.testRun.files
    .map((file) => `<code>${escapeHtml(file)}</code>`)
    .join(', ')}.</p>
</main>
</body>
</html>
`;
}

// ---- PDF ----

/** The report as a document for the product's PDF layout (host/pdfs/render-pdf.ts). */
export function reportPdfDocument(report: VerificationReport): PdfDocument {
  const numbers = new Map(report.tests.map((test) => [test.reference, test.number]));
  const sections: PdfSection[] = [
    { heading: 'Summary', paragraphs: [summary(report)] },
    { heading: 'How to read this report', paragraphs: HOW_TO_READ },
  ];
  if (report.check.problems.length) sections.push({ heading: 'Problems', bullets: report.check.problems });
  for (const [area, rows] of byArea(report.check.rows)) {
    sections.push({
      heading: area,
      columnShares: [22, 12, 28, 24, 14],
      table: [
        ['Rule', 'Value', 'Source', 'Code', 'Tests'],
        ...rows.map((row) => [
          `${row.rule.rule} (${row.rule.id})`,
          row.shown,
          `${row.source.document}, "${row.source.heading}": ` +
            row.source.quotes.map((quote) => `"${quote}"`).join('; '),
          `${row.code.label} (${row.code.file})`,
          `${row.tests.map((test) => `T${numbers.get(test.reference)}`).join(', ')}: ${status(row.passed)}`,
        ]),
      ],
    });
  }
  sections.push(
    {
      heading: 'Not listed: used by the product, not yet sourced in docs/',
      bullets: report.notListed
        .filter((entry) => entry.kind === 'unsourced')
        .map((entry) => `${entry.names.join(', ')} (${entry.file}): ${entry.reason}`),
    },
    {
      heading: 'Not listed: not clinical numbers',
      bullets: report.notListed
        .filter((entry) => entry.kind === 'not-clinical')
        .map((entry) => `${entry.names.join(', ')} (${entry.file}): ${entry.reason}`),
    },
    {
      heading: 'Tests run in this build',
      paragraphs: [`Command: ${report.testRun.command}.`],
      columnShares: [8, 78, 14],
      table: [
        ['#', 'Test', 'Result'],
        ...report.tests.map((test) => [
          `T${test.number}`,
          `${testName(test.reference)} (${testFile(test.reference)})`,
          status(test.passed),
        ]),
      ],
    },
  );
  return {
    file: REPORT_PDF_FILE,
    title: REPORT_TITLE,
    subtitle:
      `Release ${report.version}, built ${report.builtAt.replace('T', ' ').replace(/\.\d+Z$/, ' UTC')} ` +
      `(${commitText(report.commit)})`,
    sections,
  };
}

/** The PDF's bytes, and every line it writes (for tests). jsPDF is passed in (the build loads it). */
export function renderReportPdf(jsPDF: typeof JsPdf, report: VerificationReport) {
  const { doc, lines } = renderPdfWithText(
    jsPDF,
    reportPdfDocument(report),
    {
      lastUpdated: `Release ${report.version}, built ${date(report.builtAt)}`,
      footer: 'Clinical verification - decision support only',
    },
    { compress: true },
  );
  doc.setCreationDate(new Date(report.builtAt));
  return { bytes: new Uint8Array(doc.output('arraybuffer')), lines };
}
