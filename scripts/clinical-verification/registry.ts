import * as bradycardiaModel from '../../clinical/bradycardia-model.ts';
import * as bradycardiaSchema from '../../clinical/bradycardia-schema.ts';
import * as constants from '../../clinical/constants.ts';
import * as doseCalculator from '../../clinical/dose-calculator.ts';
import * as doseTexts from '../../clinical/dose-texts.ts';
import * as emergencyConstants from '../../clinical/emergency-constants.ts';
import * as textsEn from '../../clinical/texts/en.ts';

/**
 * The clinical verification registry's vocabulary (README "Clinical verification"): a rule names where the code
 * holds its value, where docs/ states it, and the tests that check it. The value itself is always read from the
 * code (never written twice), through these modules.
 */
export const CODE_MODULES = {
  'clinical/constants.ts': constants,
  'clinical/emergency-constants.ts': emergencyConstants,
  'clinical/bradycardia-model.ts': bradycardiaModel,
  'clinical/bradycardia-schema.ts': bradycardiaSchema,
  'clinical/dose-calculator.ts': doseCalculator,
  'clinical/dose-texts.ts': doseTexts,
  'clinical/texts/en.ts': textsEn,
} as const;
type CodeModules = typeof CODE_MODULES;
export type CodeFile = keyof CodeModules;

/**
 * Where the code holds a value: an export of a module, then keys into it. A key into an array picks the element
 * whose `id` or `band` is that key (`RISK_FACTORS`, `RISK_BANDS`), or, as digits, its position. A text written by
 * a function is called with `args` (a warning that names the dose).
 */
export interface CodeRef {
  file: CodeFile;
  name: string;
  path: readonly string[];
  args?: readonly (string | number)[];
}

/** An export of `file`, and keys into it. */
export function code<F extends CodeFile>(file: F, name: keyof CodeModules[F] & string, ...path: string[]): CodeRef {
  return { file, name, path };
}
/** A constant of clinical/constants.ts. */
export const constant = (name: keyof typeof constants & string): CodeRef => code('clinical/constants.ts', name);
/** A constant of clinical/emergency-constants.ts. */
export const emergencyConstant = (name: keyof typeof emergencyConstants & string): CodeRef =>
  code('clinical/emergency-constants.ts', name);
/** A text the product shows, in English (clinical/texts/en.ts): `text('dose', 'renalWarning')`. */
export const text = (...path: string[]): CodeRef => code('clinical/texts/en.ts', 'CLINICAL_TEXTS_EN', ...path);
/** The same reference, its function called with `args`. */
export const calledWith = (ref: CodeRef, ...args: (string | number)[]): CodeRef => ({ ...ref, args });

/** How a reference reads in the report: `RISK_FACTORS[betaBlocker].multiplier`, `CLINICAL_TEXTS_EN.dose.x(11, 2)`. */
export function codeLabel(ref: CodeRef): string {
  let label = ref.name;
  let holder: unknown = CODE_MODULES[ref.file][ref.name as keyof CodeModules[CodeFile]];
  for (const key of ref.path) {
    label += Array.isArray(holder) ? `[${key}]` : `.${key}`;
    holder = step(holder, key);
  }
  if (ref.args) label += `(${ref.args.map((arg) => JSON.stringify(arg)).join(', ')})`;
  return label;
}

function step(holder: unknown, key: string): unknown {
  if (Array.isArray(holder) && /^\d+$/.test(key)) return holder[Number(key)];
  if (Array.isArray(holder)) {
    return holder.find(
      (item: unknown) =>
        typeof item === 'object' &&
        item !== null &&
        ((item as { id?: unknown }).id === key || (item as { band?: unknown }).band === key),
    );
  }
  if (typeof holder === 'object' && holder !== null && Object.hasOwn(holder, key)) {
    return (holder as Record<string, unknown>)[key];
  }
  return undefined;
}

export type CodeValue = number | string;

/** The value the code holds now, or why it cannot be read (a renamed key, a value that is not a number or text). */
export function resolveCode(ref: CodeRef): { ok: true; value: CodeValue } | { ok: false; problem: string } {
  const module = CODE_MODULES[ref.file] as Record<string, unknown> | undefined;
  if (!module) return { ok: false, problem: `${ref.file} is not one of the registry's code modules` };
  if (!Object.hasOwn(module, ref.name)) return { ok: false, problem: `${ref.file} exports no ${ref.name}` };
  let value: unknown = module[ref.name];
  let reached = ref.name;
  for (const key of ref.path) {
    value = step(value, key);
    reached += `.${key}`;
    if (value === undefined) return { ok: false, problem: `${ref.file}: ${reached} does not exist` };
  }
  if (ref.args) {
    if (typeof value !== 'function') return { ok: false, problem: `${ref.file}: ${reached} is not a function` };
    value = (value as (...args: unknown[]) => unknown)(...ref.args);
  }
  if (typeof value === 'number' && Number.isFinite(value)) return { ok: true, value };
  if (typeof value === 'string' && value.trim() !== '') return { ok: true, value };
  return { ok: false, problem: `${ref.file}: ${codeLabel(ref)} is not a number or a text (${typeof value})` };
}

/** Where docs/ states a rule: a section (`docs/<file>.md#<heading anchor>`) and its words there. */
export interface SourceCitation {
  section: string;
  /**
   * Words of that section, as written there (Markdown emphasis, backticks and the kind of dash aside), that state
   * the rule; several passages when it takes more than one.
   */
  quote: string | readonly string[];
}

export interface ClinicalRule {
  /** Stable and unique: `area.what`, e.g. `emergency.atropine-child-max`. */
  id: string;
  /** The report's heading the row sits under. */
  area: string;
  /** What the rule is, in words. */
  rule: string;
  code: CodeRef;
  /** The value's unit, as the product writes it (`mg/kg`, `micrograms`, `%`). */
  unit?: string;
  source: SourceCitation;
  /**
   * The tests that check the value, each `<test file> > <describe> > … > <test name>` as vitest names it (a name
   * shared by several cases of a table names them all: every one must pass).
   */
  tests: readonly string[];
}

/**
 * Values the product uses that are deliberately not rows, and why (the report lists them). Every constant of
 * clinical/constants.ts and clinical/emergency-constants.ts is a row or here.
 */
export interface ExcludedConstant {
  file: CodeFile;
  /** Exports of `file`, or paths into one (`CLINICAL_TEXTS_EN.dose.smallVolumeWarning`). */
  names: readonly string[];
  /** `not-clinical`: not a clinical number; `unsourced`: used by the product, but docs/ give no source yet. */
  kind: 'not-clinical' | 'unsourced';
  reason: string;
}
