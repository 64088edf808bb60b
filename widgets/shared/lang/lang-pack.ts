import type { ClinicalTexts } from '../../../clinical/texts/en.ts';
import type { Messages } from './messages/index.ts';

// What a language's chunk hands over (./messages/ar/arabic-pack.ts) and lang-packs.ts keeps: apart from both, so
// that the chunk and its loader do not import each other.

/** Everything an element shows in one language: its catalogue, clinical/'s texts, and the API's messages. */
export interface LangPack {
  messages: Messages;
  /** The texts clinical/ writes into results, warnings and validation messages. */
  clinical: ClinicalTexts;
  /** A message the API (or the API client) wrote, in this language when it is a known one. */
  serverMessage: (text: string) => string;
}
