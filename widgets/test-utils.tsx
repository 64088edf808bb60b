import { render, type RenderResult } from '@testing-library/react';
import type { ReactElement } from 'react';
import { CLINICAL_TEXTS_EN } from '../clinical/texts/en.ts';
import { carryEnglish } from './shared/lang/lang-packs.ts';
import { messagesEn } from './shared/lang/messages/index.ts';
import { WidgetRoot } from './shared/element/widget-root.tsx';

/** Renders a widget's component the way its element does (WidgetRoot: styles, messages, toasts). */
export function renderWidget(ui: ReactElement): RenderResult {
  return render(<WidgetRoot>{ui}</WidgetRoot>);
}

/**
 * For a test of a part shared by several elements, rendered alone (the emergency card, the patient sheet's dialog):
 * the English texts of every element, as on a page holding all four. An element's own tests get only its catalogue
 * (its component imports it), so that a section it reads but does not carry fails them.
 */
export function carryEveryElementsEnglish(): void {
  carryEnglish({ messages: messagesEn, clinical: CLINICAL_TEXTS_EN });
}
