import { headingSlug } from '../doc-references.ts';
import {
  CODE_MODULES,
  codeLabel,
  resolveCode,
  type ClinicalRule,
  type CodeFile,
  type CodeValue,
  type ExcludedConstant,
} from './registry.ts';

/**
 * The checks `npm run build` makes on the clinical verification registry before it writes the report (README
 * "Clinical verification"). Pure: the documents and the test results are passed in.
 */

/** One test as the run reported it (vitest's JSON reporter). */
export interface TestResult {
  /** Relative to the repository, with forward slashes. */
  file: string;
  /** The describe blocks and the test's own name, joined with " > ". */
  name: string;
  status: 'passed' | 'failed' | 'skipped' | 'pending' | 'todo' | 'disabled';
  durationMs: number | null;
}

export interface VerifiedTest {
  /** As the registry writes it: `<file> > <describe> > <name>`. */
  reference: string;
  file: string;
  name: string;
  /** The run's results of that name (several for a table whose cases share a name). */
  results: readonly TestResult[];
  passed: boolean;
}

export interface VerifiedRule {
  rule: ClinicalRule;
  /** The value the code holds, as read from it in this build. */
  value: CodeValue | null;
  /** How the report writes it: the value and its unit. */
  shown: string;
  /** `file: NAME.path` of the code that holds it. */
  code: { file: CodeFile; label: string };
  source: { document: string; anchor: string; heading: string; quotes: readonly string[] };
  tests: readonly VerifiedTest[];
  /** Every check of the row holds and every test listed passed. */
  passed: boolean;
}

export interface RegistryCheck {
  rows: VerifiedRule[];
  /** What is wrong, one line each, starting with the rule's id; empty when the report may be written. */
  problems: string[];
}

/** The constants every one of which must be a row or deliberately not listed. */
export const COVERED_MODULES: readonly CodeFile[] = ['clinical/constants.ts', 'clinical/emergency-constants.ts'];

/** Text compared with a quote: Markdown emphasis, code marks and links reduced to their words; one kind of dash. */
export function normalise(text: string): string {
  return text
    .replace(/[\u2066-\u2069]/g, '')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\*\*|__|`/g, '')
    .replace(/[\u2010-\u2015\u2212]/g, '-')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

/** The numbers written in a text: `2,500` is 2500, `0.039%` is 0.039, `3–5` is 3 and 5. */
export function numbersIn(text: string): number[] {
  return (text.replace(/[\u2066-\u2069]/g, '').match(/\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?/g) ?? []).map(
    (written) => Number(written.replaceAll(',', '')),
  );
}

const sameNumber = (a: number, b: number) => Math.abs(a - b) < 1e-9;
const RANGE = /^\d+(?:\.\d+)?-\d+(?:\.\d+)?$/;

/**
 * The text of the section a `docs/<file>.md#anchor` names: from its heading to the next heading of the same or a
 * higher level. Undefined when no heading has that anchor.
 */
export function sectionText(markdown: string, anchor: string): { heading: string; text: string } | undefined {
  const lines = markdown.split('\n');
  const seen = new Map<string, number>();
  let start = -1;
  let level = 0;
  let heading = '';
  let fence = false;
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index]!;
    if (/^\s*(```|~~~)/.test(line)) fence = !fence;
    if (fence) continue;
    const match = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (!match) continue;
    if (start >= 0 && match[1]!.length <= level) return { heading, text: lines.slice(start, index).join('\n') };
    const base = headingSlug(match[2]!);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    if (start < 0 && (count === 0 ? base : `${base}-${count}`) === anchor) {
      start = index + 1;
      level = match[1]!.length;
      heading = match[2]!;
    }
  }
  return start >= 0 ? { heading, text: lines.slice(start).join('\n') } : undefined;
}

/** How the report writes a value: `4 mg/kg`, `3-5 min`, `×2`, or the text itself. */
export function showValue(value: CodeValue, unit: string | undefined): string {
  if (unit === '×') return `×${value}`;
  if (!unit) return String(value);
  return `${value}${unit === '%' ? '' : ' '}${unit}`;
}

/** Checks every rule against the code, the documents and the test results; lists what is wrong. */
export function verifyRegistry(input: {
  rules: readonly ClinicalRule[];
  notListed: readonly ExcludedConstant[];
  /** The Markdown of each document a rule cites, by its path (`docs/clinical-reference.md`). */
  documents: ReadonlyMap<string, string>;
  /** Every test of the run, and the files it ran. */
  results: readonly TestResult[];
  filesRun: readonly string[];
}): RegistryCheck {
  const problems: string[] = [];
  const seenIds = new Set<string>();
  const rows = input.rules.map((rule) => {
    const report = (message: string) => problems.push(`${rule.id || '(a rule without an id)'}: ${message}`);
    if (!/^[a-z0-9][\w.-]*$/i.test(rule.id)) report('its id must be letters, digits, dots, hyphens and underscores');
    if (seenIds.has(rule.id)) report('another rule has the same id');
    seenIds.add(rule.id);
    if (!rule.area?.trim() || !rule.rule?.trim()) report('it needs an area and a description');

    // The value, read from the code.
    const resolved = resolveCode(rule.code);
    if (!resolved.ok) report(`its code cannot be read: ${resolved.problem}`);
    const value = resolved.ok ? resolved.value : null;
    let label = rule.code.name;
    try {
      label = codeLabel(rule.code);
    } catch {
      // already reported: the reference does not resolve
    }

    // The source: the section exists, the quotes are in it, and they state the value.
    const quotes = typeof rule.source?.quote === 'string' ? [rule.source.quote] : [...(rule.source?.quote ?? [])];
    const [document = '', anchor = ''] = (rule.source?.section ?? '').split('#');
    let heading = '';
    if (!rule.source || !/^docs\/[\w./-]+\.md$/.test(document) || !anchor) {
      report('it has no source: give `source.section` as docs/<file>.md#<heading anchor> and the words it says there');
    } else if (!input.documents.has(document)) {
      report(`its source ${document} is not a document of docs/`);
    } else {
      const section = sectionText(input.documents.get(document)!, anchor);
      if (!section) report(`its source ${document}#${anchor}: no heading of ${document} has this anchor`);
      else {
        heading = section.heading;
        const sectionWords = normalise(section.text);
        if (quotes.length === 0 || quotes.some((quote) => !quote.trim())) report('its source quotes nothing');
        for (const quote of quotes) {
          if (quote.trim() && !sectionWords.includes(normalise(quote)))
            report(`its source does not say "${quote}" in ${document}#${anchor} ("${heading}")`);
        }
        if (value !== null) {
          const problem = valueAgainstQuotes(value, quotes, rule.code.args ?? []);
          if (problem) report(problem);
        }
      }
    }

    // The tests: listed, run in this build, passed.
    if (rule.tests.length === 0) report('it lists no test: name the tests that check it');
    const tests = rule.tests.map((reference): VerifiedTest => {
      const cut = reference.indexOf(' > ');
      const file = cut > 0 ? reference.slice(0, cut) : reference;
      const name = cut > 0 ? reference.slice(cut + 3) : '';
      const results = input.results.filter((result) => result.file === file && result.name === name);
      if (cut <= 0 || !name) report(`test "${reference}": write it as <test file> > <describe> > <test name>`);
      else if (!input.filesRun.includes(file)) report(`test "${reference}": ${file} was not run (no such test file?)`);
      else if (results.length === 0) report(`test "${reference}" does not exist: no test of ${file} has this name`);
      const failed = results.filter((result) => result.status !== 'passed');
      if (failed.length > 0) {
        report(`test "${reference}" did not pass in this build (${failed.map((result) => result.status).join(', ')})`);
      }
      return { reference, file, name, results, passed: results.length > 0 && failed.length === 0 };
    });

    const row: VerifiedRule = {
      rule,
      value,
      shown: value === null ? '(unreadable)' : showValue(value, rule.unit),
      code: { file: rule.code.file, label },
      source: { document, anchor, heading, quotes },
      tests,
      passed: false,
    };
    return row;
  });
  const failedIds = new Set(problems.map((problem) => problem.slice(0, problem.indexOf(':'))));
  for (const row of rows) row.passed = !failedIds.has(row.rule.id) && row.tests.every((test) => test.passed);

  problems.push(...coverageProblems(input.rules, input.notListed));
  return { rows, problems };
}

/** Why the quotes do not state `value`, or undefined when they do. */
function valueAgainstQuotes(
  value: CodeValue,
  quotes: readonly string[],
  args: readonly (string | number)[],
): string | undefined {
  const quoted = quotes.flatMap(numbersIn);
  if (typeof value === 'number') {
    return quoted.some((number) => sameNumber(number, value))
      ? undefined
      : `the code holds ${value}, which its source does not state (${quotes.map((q) => `"${q}"`).join(', ')})`;
  }
  if (RANGE.test(value) || !/\s/.test(value)) {
    return quotes.some((quote) => normalise(quote).includes(normalise(value)))
      ? undefined
      : `the code holds "${value}", which its source does not state`;
  }
  // A text the product shows: every number in it is in the source (the numbers it was called with aside).
  const given = args.flatMap((arg) => (typeof arg === 'number' ? [arg] : numbersIn(arg)));
  const unsourced = numbersIn(value).filter(
    (number) => !quoted.some((q) => sameNumber(q, number)) && !given.some((g) => sameNumber(g, number)),
  );
  return unsourced.length === 0
    ? undefined
    : `the text shows ${[...new Set(unsourced)].join(', ')}, which its source does not state: "${value}"`;
}

/** Every constant of the covered modules is a row or deliberately not listed; what is not listed exists. */
function coverageProblems(rules: readonly ClinicalRule[], notListed: readonly ExcludedConstant[]): string[] {
  const problems: string[] = [];
  const inRows = new Set(rules.map((rule) => `${rule.code.file}:${rule.code.name}`));
  const excluded = new Map<string, ExcludedConstant>();
  for (const entry of notListed) {
    if (!entry.reason.trim()) problems.push(`${entry.file}: ${entry.names.join(', ')} not listed without a reason`);
    for (const name of entry.names) {
      const [head = '', ...path] = name.split('.');
      let holder: unknown = CODE_MODULES[entry.file];
      for (const key of [head, ...path]) {
        holder =
          typeof holder === 'object' && holder !== null && Object.hasOwn(holder, key)
            ? (holder as Record<string, unknown>)[key]
            : undefined;
      }
      if (holder === undefined) problems.push(`${entry.file}: ${name} is listed as not listed, but does not exist`);
      const key = `${entry.file}:${name}`;
      if (inRows.has(key)) problems.push(`${entry.file}: ${name} is both a row and not listed`);
      excluded.set(key, entry);
    }
  }
  for (const file of COVERED_MODULES) {
    for (const name of Object.keys(CODE_MODULES[file])) {
      if (!inRows.has(`${file}:${name}`) && !excluded.has(`${file}:${name}`)) {
        problems.push(
          `${file}: ${name} is in no rule of the clinical verification registry: add a rule for it to ` +
            'scripts/clinical-verification/rules.ts (or, if it is not a clinical number, to NOT_LISTED there, ' +
            'with why)',
        );
      }
    }
  }
  return problems;
}
