#!/usr/bin/env node
// The clinical verification report (README "Clinical verification"), built with every release: runs the tests the
// registry (scripts/clinical-verification/rules.ts) lists, checks every rule against the code, docs/ and those
// results, and writes clinical-verification.html and .pdf into the site. Any problem stops the build with the list.
import { spawn, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runnerImport } from 'vite';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const VITEST = path.join(root, 'node_modules', 'vitest', 'vitest.mjs');
const TEST_CONFIG = 'scripts/clinical-verification/vitest.config.ts';

/** What stops the build: its message says what is wrong and where (no stack trace is needed to read it). */
export class ClinicalVerificationError extends Error {
  name = 'ClinicalVerificationError';
}

/** Prints a ClinicalVerificationError's message and exits 1; rethrows anything else. */
export function exitOnVerificationError(error) {
  if (!(error instanceof ClinicalVerificationError)) throw error;
  console.error(error.message);
  process.exit(1);
}

/** The report's module (TypeScript, through Vite's module runner). */
async function loadReportModule() {
  const { module } = await runnerImport(path.join(root, 'scripts/clinical-verification/report.ts'), {
    configFile: false,
    root,
    logLevel: 'warn',
  });
  return module;
}

/**
 * Starts the build's check at once: the registry is loaded and its tests run in a child process (vitest, its JSON
 * reporter) while the rest of the site builds. `write(siteDir)` then waits for them, checks, and writes the report;
 * `cancel()` stops the run (the build failed elsewhere).
 */
export function startClinicalVerification() {
  let child;
  let cancelled = false;
  const started = (async () => {
    const report = await loadReportModule();
    const files = report.testFilesOf();
    if (cancelled) return { report, files, run: undefined };
    const run = await runTests(files, (spawned) => (child = spawned));
    return { report, files, run };
  })();
  started.catch(() => {}); // awaited by write(); a cancelled build does not wait for it
  return {
    cancel() {
      cancelled = true;
      child?.kill();
    },
    async write(siteDir) {
      const { report, run } = await started;
      const facts = {
        version: JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).version,
        builtAt: buildDate().toISOString(),
        commit: gitCommit(),
        testRun: run.summary,
      };
      const documents = new Map();
      for (const rule of report.CLINICAL_RULES) {
        const document = String(rule.source?.section ?? '').split('#')[0];
        if (/^docs\/[\w./-]+\.md$/.test(document) && !documents.has(document)) {
          try {
            documents.set(document, readFileSync(path.join(root, document), 'utf8'));
          } catch {
            // reported by the check: not a document of docs/
          }
        }
      }
      const check = report.verifyRegistry({
        rules: report.CLINICAL_RULES,
        notListed: report.NOT_LISTED,
        documents,
        results: run.results,
        filesRun: run.filesRun,
      });
      const problems = [...run.fileErrors, ...check.problems];
      if (problems.length > 0) {
        throw new ClinicalVerificationError(
          `The clinical verification failed: ${problems.length} problem(s) (scripts/clinical-verification/rules.ts;` +
            ` README "Clinical verification"):\n${problems.map((problem) => `  - ${problem}`).join('\n')}`,
        );
      }
      const built = report.buildReport(facts, check);
      const { jsPDF } = await import('jspdf');
      const pdf = report.renderReportPdf(jsPDF, built);
      mkdirSync(siteDir, { recursive: true });
      writeFileSync(path.join(siteDir, report.REPORT_HTML_FILE), report.renderReportHtml(built));
      writeFileSync(path.join(siteDir, report.REPORT_PDF_FILE), pdf.bytes);
      return { rules: check.rows.length, tests: built.tests.length, testRun: run.summary };
    },
  };
}

/** The build's date: SOURCE_DATE_EPOCH (seconds) when set, for a reproducible build; else now. */
function buildDate() {
  const epoch = process.env.SOURCE_DATE_EPOCH;
  if (epoch === undefined || epoch === '') return new Date();
  if (!/^\d+$/.test(epoch)) throw new Error(`SOURCE_DATE_EPOCH must be whole seconds since 1970, not "${epoch}"`);
  return new Date(Number(epoch) * 1000);
}

function gitCommit() {
  try {
    const git = (...args) => execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: 'pipe' }).trim();
    return { id: git('rev-parse', '--short=12', 'HEAD'), modified: git('status', '--porcelain') !== '' };
  } catch {
    return null;
  }
}

/**
 * Runs `files` with vitest (its own config: node, no database) and its JSON reporter; every test's file, full name
 * and status. A failing test is a result, not an error; a run that reports nothing is an error.
 */
async function runTests(files, onSpawn) {
  const scratch = mkdtempSync(path.join(tmpdir(), 'sgx-clinical-tests-'));
  const output = path.join(scratch, 'results.json');
  const args = [VITEST, 'run', '--config', TEST_CONFIG, '--reporter=json', `--outputFile=${output}`, ...files];
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST')));
  const startedAt = Date.now();
  try {
    const { code, stderr } = await new Promise((resolve, reject) => {
      const child = spawn(process.execPath, args, {
        cwd: root,
        env: { ...env, NODE_ENV: 'test', FORCE_COLOR: '0', CI: env.CI ?? '' },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      onSpawn(child);
      let stderr = '';
      child.stderr.on('data', (chunk) => (stderr = (stderr + chunk).slice(-4000)));
      child.on('error', reject);
      child.on('close', (code, signal) => resolve({ code: signal ? signal : code, stderr }));
    });
    let json;
    try {
      json = JSON.parse(readFileSync(output, 'utf8'));
    } catch {
      throw new ClinicalVerificationError(
        `The clinical verification could not run its tests (vitest exited with ${code}; node ${args
          .slice(1, 4)
          .join(' ')} …):\n${stderr.trim()}`,
      );
    }
    const results = [];
    const filesRun = [];
    const fileErrors = [];
    for (const file of json.testResults) {
      const relative = path.relative(root, file.name).split(path.sep).join('/');
      filesRun.push(relative);
      if (file.status === 'failed' && file.assertionResults.length === 0)
        fileErrors.push(`${relative} did not run: ${String(file.message ?? '').split('\n')[0]}`);
      for (const test of file.assertionResults) {
        results.push({
          file: relative,
          name: [...test.ancestorTitles, test.title].join(' > '),
          status: test.status,
          durationMs: test.duration ?? null,
        });
      }
    }
    const vitestVersion = JSON.parse(readFileSync(path.join(root, 'node_modules/vitest/package.json'), 'utf8')).version;
    return {
      results,
      filesRun,
      fileErrors,
      summary: {
        command: `vitest run --config ${TEST_CONFIG} ${files.join(' ')}`,
        vitest: vitestVersion,
        files: filesRun,
        total: json.numTotalTests,
        passed: json.numPassedTests,
        durationMs: Date.now() - startedAt,
      },
    };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Runs the check and writes the report into `siteDir` (default dist/site). */
export async function buildClinicalVerification(siteDir = path.join(root, 'dist/site')) {
  return startClinicalVerification().write(siteDir);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const outDir = process.argv[2] ? path.resolve(process.argv[2]) : undefined;
  try {
    const { rules, tests, testRun } = await buildClinicalVerification(outDir);
    console.log(
      `Clinical verification: ${rules} rules, ${tests} tests listed, all passed (${testRun.total} run in ` +
        `${(testRun.durationMs / 1000).toFixed(1)} s)`,
    );
  } catch (error) {
    exitOnVerificationError(error);
  }
}
