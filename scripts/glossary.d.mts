export interface GlossaryTerm {
  section: string;
  /** The English term. */
  en: string;
  /** The one Arabic term every Arabic text uses. */
  ar: string;
  english_in_brackets: string;
  /** Variants that must appear in no Arabic text. */
  rejected: string[];
}
export interface Glossary {
  sections: Record<string, string>;
  terms: GlossaryTerm[];
  rejected_patterns: { pattern: string; why: string }[];
  forbidden_everywhere: { pattern: string; why: string }[];
}
export const GLOSSARY_FILE: string;
export const GLOSSARY_DOC: string;
export function readGlossary(file?: string): Glossary;
export function normalizeArabic(text: string): string;
export function rejectedVariantsIn(text: string, glossary?: Glossary): string[];
export function forbiddenAbbreviationsIn(text: string, glossary?: Glossary): string[];
export function glossaryTables(glossary?: Glossary): string;
export function glossaryDoc(doc?: string, glossary?: Glossary): string;
