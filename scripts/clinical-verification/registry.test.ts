import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { jsPDF } from 'jspdf';
import { describe, expect, it } from 'vitest';
import * as bradycardiaModel from '../../clinical/bradycardia-model.ts';
import * as constants from '../../clinical/constants.ts';
import * as emergencyConstants from '../../clinical/emergency-constants.ts';
import { CLINICAL_TEXTS_EN } from '../../clinical/texts/en.ts';
import { isPdfSafe } from '../../widgets/shared/pdf/text.ts';
import { constant, emergencyConstant, resolveCode, type ClinicalRule } from './registry.ts';
import { buildReport, renderReportHtml, renderReportPdf, testFilesOf, type BuildFacts } from './report.ts';
import { CLINICAL_RULES, NOT_LISTED } from './rules.ts';
import { normalise, numbersIn, sectionText, verifyRegistry, type TestResult } from './verify.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const DOCUMENTS = new Map(
  ['docs/clinical-reference.md', 'docs/product.md'].map((file) => [file, readFileSync(path.join(root, file), 'utf8')]),
);

/** A run in which every test the rules list exists and passed (the build runs them for real). */
function passingRun(rules: readonly ClinicalRule[]) {
  const results: TestResult[] = rules.flatMap((rule) =>
    rule.tests.map((reference) => {
      const cut = reference.indexOf(' > ');
      return { file: reference.slice(0, cut), name: reference.slice(cut + 3), status: 'passed', durationMs: 1 };
    }),
  );
  return { results, filesRun: testFilesOf(rules) };
}
const verify = (rules: readonly ClinicalRule[], run = passingRun(rules)) =>
  verifyRegistry({ rules, notListed: NOT_LISTED, documents: DOCUMENTS, ...run });

const ruleOf = (id: string) => CLINICAL_RULES.find((rule) => rule.id === id)!;

describe('the clinical verification registry (scripts/clinical-verification/rules.ts)', () => {
  it('every rule has an id, a source, its code and tests; the sources resolve and state the values', () => {
    expect(CLINICAL_RULES.length).toBeGreaterThan(100);
    for (const rule of CLINICAL_RULES) {
      expect(rule.id, rule.id).toMatch(/^[a-z][\w.-]+$/);
      const [document, anchor] = rule.source.section.split('#');
      expect([...DOCUMENTS.keys()], rule.id).toContain(document);
      expect(anchor, rule.id).toMatch(/^[\w-]+$/);
      expect(rule.tests.length, rule.id).toBeGreaterThan(0);
      for (const reference of rule.tests) expect(reference, rule.id).toMatch(/^[\w/.-]+\.test\.ts > .+/);
    }
    // the whole check, with every listed test passing: nothing else is wrong
    expect(verify(CLINICAL_RULES).problems).toEqual([]);
  });

  it('every test file the rules list exists, under clinical/ (the build runs them in node)', () => {
    for (const file of testFilesOf()) {
      expect(file).toMatch(/^clinical\/[\w/.-]+\.test\.ts$/);
      expect(() => readFileSync(path.join(root, file)), file).not.toThrow();
    }
  });

  it('the values are the code constants themselves', () => {
    for (const rule of CLINICAL_RULES) {
      const resolved = resolveCode(rule.code);
      expect(resolved.ok, rule.id).toBe(true);
      if (!resolved.ok || rule.code.path.length > 0 || rule.code.args) continue;
      const module = { 'clinical/constants.ts': constants, 'clinical/emergency-constants.ts': emergencyConstants }[
        rule.code.file as string
      ] as Record<string, unknown> | undefined;
      if (module) expect(resolved.value, rule.id).toBe(module[rule.code.name]);
    }
    // and, spelled out, a few rows the way the report shows them
    const shown = (id: string) => verify(CLINICAL_RULES).rows.find((row) => row.rule.id === id)!.shown;
    expect(shown('emergency.atropine-child-max')).toBe(`${emergencyConstants.ATROPINE_CHILD_MAX_MG} mg`);
    expect(shown('dose.deep-block')).toBe(`${constants.DEEP_BLOCK_DOSE_MG_PER_KG} mg/kg`);
    expect(shown('advisor.factor.conductionDisease')).toBe(
      `×${bradycardiaModel.RISK_FACTORS.find((factor) => factor.id === 'conductionDisease')!.multiplier}`,
    );
    expect(shown('advisor.band-moderate')).toBe('15%');
    expect(shown('renal.warning')).toBe(CLINICAL_TEXTS_EN.dose.renalWarning);
    expect(shown('emergency.atropine-repeat')).toBe('3-5 min');
  });

  it('every constant of constants.ts and emergency-constants.ts is a row or not listed, with a reason', () => {
    const covered = new Set([
      ...CLINICAL_RULES.map((rule) => `${rule.code.file}:${rule.code.name}`),
      ...NOT_LISTED.flatMap((entry) => entry.names.map((name) => `${entry.file}:${name}`)),
    ]);
    for (const [file, module] of [
      ['clinical/constants.ts', constants],
      ['clinical/emergency-constants.ts', emergencyConstants],
    ] as const) {
      for (const name of Object.keys(module)) expect(covered.has(`${file}:${name}`), `${file}: ${name}`).toBe(true);
    }
    for (const entry of NOT_LISTED) expect(entry.reason.length).toBeGreaterThan(20);
  });
});

describe('the build refuses a registry or a run that does not hold', () => {
  const rule = ruleOf('emergency.atropine-child-max');
  const onlyThat = (changed: ClinicalRule) =>
    CLINICAL_RULES.map((candidate) => (candidate === rule ? changed : candidate));
  const problemsOf = (rules: readonly ClinicalRule[], run = passingRun(CLINICAL_RULES)) =>
    verify(rules, run).problems.filter((problem) => problem.startsWith(rule.id));

  it.each([
    ['no test', { ...rule, tests: [] }, 'it lists no test'],
    ['no source', { ...rule, source: undefined as never }, 'it has no source'],
    [
      'an anchor no heading has',
      { ...rule, source: { ...rule.source, section: `${rule.source.section.split('#')[0]}#no-such-heading` } },
      'no heading',
    ],
    ['words the section does not say', { ...rule, source: { ...rule.source, quote: 'max 0.6 mg' } }, 'does not say'],
    [
      'a value its source does not state',
      { ...rule, code: emergencyConstant('ATROPINE_CHILD_MG_PER_KG'), source: { ...rule.source, quote: 'max 0.5 mg' } },
      'which its source does not state',
    ],
    [
      'a text with a number its source does not state',
      { ...ruleOf('renal.no-adjustment-note'), id: rule.id, source: { ...rule.source, quote: 'CrCl 30' } },
      'the text shows 80',
    ],
    [
      'code that cannot be read',
      { ...rule, code: { ...constant('VIAL_CONTENT_MG'), name: 'NO_SUCH' } },
      'cannot be read',
    ],
    [
      'a test that does not exist',
      { ...rule, tests: ['clinical/emergency.test.ts > worked checks > no such test'] },
      'does not exist',
    ],
    ['a test file that was not run', { ...rule, tests: ['clinical/none.test.ts > a > b'] }, 'was not run'],
  ] as const)('%s', (_what, changed, message) => {
    expect(problemsOf(onlyThat(changed as ClinicalRule)).join('\n')).toContain(message);
  });

  it('a listed test that failed in the run', () => {
    const run = passingRun(CLINICAL_RULES);
    const failing = rule.tests[0]!;
    const results = run.results.map((result) =>
      `${result.file} > ${result.name}` === failing ? { ...result, status: 'failed' as const } : result,
    );
    const check = verify(CLINICAL_RULES, { ...run, results });
    expect(check.problems).toEqual([`${rule.id}: test "${failing}" did not pass in this build (failed)`]);
    expect(check.rows.find((row) => row.rule.id === rule.id)!.passed).toBe(false);
  });

  it('a constant in no row (a rule removed, or a constant added without its row)', () => {
    const problems = verify(CLINICAL_RULES.filter((candidate) => candidate !== rule)).problems;
    expect(problems).toEqual([
      expect.stringContaining('clinical/emergency-constants.ts: ATROPINE_CHILD_MAX_MG is in no rule'),
    ]);
  });

  it('two rules with one id', () => {
    expect(verify([...CLINICAL_RULES, rule]).problems).toContain(`${rule.id}: another rule has the same id`);
  });
});

describe('the check reads the documents as written', () => {
  it('a section runs to the next heading of its level, its subsections included', () => {
    const model = sectionText(DOCUMENTS.get('docs/clinical-reference.md')!, '4-bradycardia-risk-model-version-1')!;
    expect(model.heading).toBe('4. Bradycardia risk model (version 1)');
    expect(model.text).toContain('### Management plan');
    expect(model.text).not.toContain('## 5.');
    expect(sectionText('# A\ntext\n## B', 'c')).toBeUndefined();
  });

  it.each([
    ['2,500 administrations', [2500]],
    ['0.039% and 0.02%', [0.039, 0.02]],
    ['every 3–5 min, HR < 60', [3, 5, 60]],
    ['\u20661 mg\u2069', [1]],
  ])('numbers in "%s"', (text, numbers) => {
    expect(numbersIn(text)).toEqual(numbers);
  });

  it('emphasis, code marks, links and dashes do not change the words', () => {
    expect(normalise('**Not** `< 5%` [the rules](product.md#5-validation-rules), 3–5')).toBe('not < 5% the rules, 3-5');
  });
});

describe('the report', () => {
  const facts: BuildFacts = {
    version: '9.8.7',
    builtAt: '2026-01-02T03:04:05.000Z',
    commit: { id: 'abc123def456', modified: false },
    testRun: {
      command: 'vitest run …',
      vitest: '4.1.12',
      files: testFilesOf(),
      total: 400,
      passed: 400,
      durationMs: 5000,
    },
  };
  const report = buildReport(facts, verify(CLINICAL_RULES));

  it('lists every rule with its value, source, code, tests and result, and the release and date', () => {
    const html = renderReportHtml(report);
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('Release <strong data-release>9.8.7</strong>');
    expect(html).toContain('2026-01-02 03:04:05 UTC');
    expect(html).toContain('commit abc123def456');
    for (const rule of CLINICAL_RULES) expect(html).toContain(`<tr id="${rule.id}">`);
    expect(html.match(/<td class="passed">passed<\/td>/g)).toHaveLength(CLINICAL_RULES.length);
    expect(html).not.toContain('FAILED');
    expect(html).toContain('ATROPINE_CHILD_MAX_MG');
    expect(html).not.toMatch(/<script/i);
  });

  it('as a PDF in the fonts a PDF can show, with every rule', () => {
    const { bytes, lines } = renderReportPdf(jsPDF, report);
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe('%PDF-');
    expect(lines.filter((line) => !isPdfSafe(line))).toEqual([]);
    const text = lines.join(' ');
    for (const rule of CLINICAL_RULES) expect(text.replace(/\s+/g, '')).toContain(rule.id.replace(/\s+/g, ''));
    expect(text).toContain('Release 9.8.7');
  });
});
