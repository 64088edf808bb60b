import type { RoiResult } from '../../clinical/index.ts';
import type { RoiInputsDetail } from '../shared/widget-host/events.ts';
import { roi } from '../shared/lang/messages/roi.ts';
import { impactLines, inputLines, resultLines, type RoiMessages } from './report-text.ts';

/**
 * docs/product.md §7: "E-mail Report" opens the mail client with a subject and body and no recipient.
 * RFC 6068: line breaks in a mailto body are CRLF, and every part is percent-encoded.
 */
export function buildRoiMailto(inputs: RoiInputsDetail, result: RoiResult, t: RoiMessages = roi): string {
  const bullet = (line: string) => `- ${line}`;
  const body = [
    t.mail.intro,
    '',
    `${t.report.inputs}:`,
    ...inputLines(inputs, t).map(bullet),
    '',
    `${t.report.results}:`,
    ...resultLines(result, t).map(bullet),
    '',
    `${t.report.impact}:`,
    ...impactLines(inputs, result, t),
    '',
    t.disclaimer,
  ].join('\r\n');
  return `mailto:?subject=${encodeURIComponent(t.mail.subject)}&body=${encodeURIComponent(body)}`;
}

/** The one navigation the widget makes, behind an object so a test can replace it. */
export const mailNavigation = {
  open(url: string): void {
    window.location.href = url;
  },
};
