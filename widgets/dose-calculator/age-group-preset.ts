import { AGE_GROUPS, type AgeGroup } from '../../clinical/index.ts';

/**
 * The `age-group` preset as a host page wrote it (an attribute or a property):
 * - `absent`: no preset, or an empty one: the form starts at its default, adult (docs/product.md §3);
 * - `known`: one of the age groups, whatever the case or the spaces around it, `paediatric` as `pediatric`;
 * - `unknown`: anything else. Never read as adult (issue 30): the field is left for the user to choose,
 *   with a message on screen and one in the console. `text` is the value as given, for both.
 */
export type AgeGroupPreset =
  { kind: 'absent' } | { kind: 'known'; ageGroup: AgeGroup } | { kind: 'unknown'; text: string };

/** Other spellings of an age group, as written once lower-cased (the British spelling). */
const SPELLINGS: Readonly<Record<string, AgeGroup>> = { paediatric: 'pediatric' };

/** The longest part of an unknown value repeated in the messages (a page could pass anything). */
export const SHOWN_PRESET_MAX_LENGTH = 40;

export function parseAgeGroupPreset(value: unknown): AgeGroupPreset {
  if (value == null) return { kind: 'absent' };
  const text = String(value).trim();
  if (text === '') return { kind: 'absent' };
  const word = text.normalize('NFKC').toLowerCase();
  const known = (AGE_GROUPS as readonly string[]).includes(word) ? (word as AgeGroup) : SPELLINGS[word];
  if (known) return { kind: 'known', ageGroup: known };
  const shown = text.length > SHOWN_PRESET_MAX_LENGTH ? `${text.slice(0, SHOWN_PRESET_MAX_LENGTH)}…` : text;
  return { kind: 'unknown', text: shown };
}

/** The console's word for an unknown preset (for the page's developers: English, whatever the element's language). */
export const unknownAgeGroupWarning = (text: string): string =>
  `<sgx-dose-calculator>: age-group="${text}" is not an age group (adult, pediatric or paediatric, infant; ` +
  `any case). The age group is left unset for the user to choose; no dose is calculated until they do.`;
