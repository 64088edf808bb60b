export interface ClinicalVerificationRun {
  cancel(): void;
  /** Waits for the tests, checks every rule, writes clinical-verification.html and .pdf into `siteDir`; throws the problems. */
  write(siteDir: string): Promise<{ rules: number; tests: number; testRun: { total: number; durationMs: number } }>;
}
/** Starts the clinical verification's test run at once (scripts/clinical-verification/rules.ts). */
export function startClinicalVerification(): ClinicalVerificationRun;
/** Runs the check and writes the report into `siteDir` (default dist/site). */
export function buildClinicalVerification(siteDir?: string): ReturnType<ClinicalVerificationRun['write']>;
/** What stops the build (a problem of the registry, its sources or its tests); its message lists them. */
export class ClinicalVerificationError extends Error {}
/** Prints a ClinicalVerificationError's message and exits 1; rethrows anything else. */
export function exitOnVerificationError(error: unknown): never;
