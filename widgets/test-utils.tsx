import { render, type RenderResult } from '@testing-library/react';
import type { ReactElement } from 'react';
import { WidgetRoot } from './shared/widget-root.tsx';

/** Renders a widget's component the way its element does (WidgetRoot: styles, messages, toasts). */
export function renderWidget(ui: ReactElement): RenderResult {
  return render(<WidgetRoot>{ui}</WidgetRoot>);
}
