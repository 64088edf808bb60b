import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  checkClinicalFolder,
  checkClinicalSource,
  checkContractsFolder,
  checkFhirFolder,
  FHIR_TYPE_PACKAGES,
} from './clinical-boundary.ts';

const clinicalDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../clinical');
const contractsDir = path.resolve(clinicalDir, '../contracts');
const fhirDir = path.resolve(clinicalDir, '../fhir');
const file = path.join(clinicalDir, 'example.ts');
const messages = (source: string, name = file) => checkClinicalSource(name, source, clinicalDir).map((v) => v.message);

describe('clinical/ boundary', () => {
  it('clinical/ as it is has no violation', () => {
    expect(checkClinicalFolder(clinicalDir)).toEqual([]);
  });

  it.each([
    ["import React from 'react';", 'imports "react" (clinical/ may import only valibot)'],
    ["import Koa from 'koa';", 'imports "koa" (clinical/ may import only valibot)'],
    ["import { Low } from 'lowdb';", 'imports "lowdb" (clinical/ may import only valibot)'],
    ["import { readFile } from 'node:fs/promises';", 'imports "node:fs/promises" (clinical/ may import only valibot)'],
    ["import { x } from '../widgets/index.ts';", 'imports "../widgets/index.ts" from outside clinical/'],
    ["export { x } from '../api/app.ts';", 'imports "../api/app.ts" from outside clinical/'],
    ["const m = await import('../host/page.tsx');", 'imports "../host/page.tsx" from outside clinical/'],
    ["import type { Context } from '@koa/router';", 'imports "@koa/router" (clinical/ may import only valibot)'],
    ['const r = await fetch("/api");', 'uses the global "fetch"'],
    ['const w = window.innerWidth;', 'uses the global "window"'],
    ['const p = process.env.X;', 'uses the global "process"'],
    ['localStorage.getItem("k");', 'uses the global "localStorage"'],
    ['const t = Date.now();', 'reads Date.now() (pass time or randomness in)'],
    ['const d = new Date();', 'reads the clock with new Date() (pass time in)'],
    ['const r = Math.random();', 'reads Math.random() (pass time or randomness in)'],
  ])('refuses %s', (source, message) => {
    expect(messages(source)).toEqual([message]);
  });

  it.each([
    "import * as v from 'valibot';",
    "import { roundTo } from './rounding.ts';",
    "import { x } from './sub/dir.ts';",
    'const input = { window: 1, fetch: 2 }; const y = input.window + input.fetch;',
    'const d = new Date(0);',
  ])('allows %s', (source) => {
    expect(messages(source)).toEqual([]);
  });

  it('is syntactic: a local that shadows a forbidden global is refused too (rename it)', () => {
    expect(messages('function f(process: number) { return process; }')).toEqual(['uses the global "process"']);
  });

  it('lets tests use the test tools but nothing else', () => {
    const testFile = path.join(clinicalDir, 'x.test.ts');
    expect(messages("import { it } from 'vitest'; import fc from 'fast-check';", testFile)).toEqual([]);
    expect(messages("import { it } from 'vitest';", file)).toEqual([
      'imports "vitest" (clinical/ may import only valibot)',
    ]);
    expect(messages("import { app } from '../api/app.ts';", testFile)).toEqual([
      'imports "../api/app.ts" from outside clinical/',
    ]);
  });
});

describe('contracts/ boundary (the same rules; clinical/ may be imported)', () => {
  const contractFile = path.join(contractsDir, 'example.ts');
  const contractMessages = (source: string) =>
    checkClinicalSource(contractFile, source, contractsDir, [contractsDir, clinicalDir]).map((v) => v.message);

  it('contracts/ as it is has no violation', () => {
    expect(checkContractsFolder(contractsDir, clinicalDir)).toEqual([]);
  });

  it.each([
    ["import * as v from 'valibot';", []],
    ["import { AGE_GROUPS } from '../clinical/dose-schema.ts';", []],
    ["import { TOOL_TYPES } from './records.ts';", []],
    [
      "import { x } from '../widgets/shared/api/api-client.ts';",
      ['imports "../widgets/shared/api/api-client.ts" from outside contracts/ and clinical/'],
    ],
    [
      "import { publicUser } from '../api/auth/routes.ts';",
      ['imports "../api/auth/routes.ts" from outside contracts/ and clinical/'],
    ],
    ["import React from 'react';", ['imports "react" (contracts/ may import only valibot)']],
    ['const r = await fetch("/api");', ['uses the global "fetch"']],
    ['const t = Date.now();', ['reads Date.now() (pass time or randomness in)']],
  ])('%s', (source, expected) => {
    expect(contractMessages(source)).toEqual(expected);
  });
});

describe('fhir/ boundary (the same rules; clinical/ and contracts/ may be imported, and FHIR types)', () => {
  const fhirFile = path.join(fhirDir, 'example.ts');
  const fhirMessages = (source: string) =>
    checkClinicalSource(fhirFile, source, fhirDir, [fhirDir, contractsDir, clinicalDir], FHIR_TYPE_PACKAGES).map(
      (v) => v.message,
    );

  it('fhir/ as it is has no violation', () => {
    expect(checkFhirFolder(fhirDir, contractsDir, clinicalDir)).toEqual([]);
  });

  it.each([
    ["import * as v from 'valibot';", []],
    ["import { AGE_GROUPS } from '../clinical/dose-schema.ts';", []],
    ["import { TOOL_TYPES } from '../contracts/records.ts';", []],
    ["import type { Bundle } from '@medplum/fhirtypes';", []],
    ["import { type Bundle, type Patient } from '@medplum/fhirtypes';", []],
    ["export type { Bundle } from '@medplum/fhirtypes';", []],
    [
      "import { Bundle } from '@medplum/fhirtypes';",
      ['imports "@medplum/fhirtypes" (fhir/ may import only valibot, and types from @medplum/fhirtypes)'],
    ],
    [
      "import { validateResource } from '@medplum/core';",
      ['imports "@medplum/core" (fhir/ may import only valibot, and types from @medplum/fhirtypes)'],
    ],
    [
      "import type { Store } from '../api/storage/store.ts';",
      ['imports "../api/storage/store.ts" from outside fhir/ and contracts/ and clinical/'],
    ],
    ['const id = crypto.randomUUID();', ['reads crypto.randomUUID() (pass time or randomness in)']],
    ['const d = new Date();', ['reads the clock with new Date() (pass time in)']],
  ])('%s', (source, expected) => {
    expect(fhirMessages(source)).toEqual(expected);
  });
});
