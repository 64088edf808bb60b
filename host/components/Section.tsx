import { css } from '@emotion/react';
import type { ReactNode } from 'react';
import { container, sectionStyle } from '../styles.ts';
import { bidiText } from '../../widgets/shared/ui/bidi-text.tsx';

/**
 * The heights the content sections measured (px, English, fonts loaded; at 412 and 1280 px wide), their
 * placeholders until first rendered (below).
 */
const ESTIMATED_HEIGHT: Record<string, readonly [phone: number, desktop: number]> = {
  moa: [2030, 860],
  advantage: [2210, 1110],
  safety: [500, 490],
  evidence: [2170, 970],
  resources: [1670, 860],
  faq: [1180, 950],
};

/**
 * A content section is rendered only as it nears the screen (`content-visibility: auto`): while off screen its
 * style, layout and paint are skipped, which is most of the page's work at load on a phone (issue 36), and it
 * holds its estimated height (then the last rendered one), so the page is as long and a link to it lands alike.
 * What it holds stays in the document: found by the browser's search, read by assistive technology, printed.
 * Tool sections are not deferred: their elements' boxes are reserved and defined as the reader nears them.
 */
const deferred = (id: string) => {
  const estimate = ESTIMATED_HEIGHT[id];
  return (
    estimate &&
    css`
      content-visibility: auto;
      contain-intrinsic-block-size: auto ${estimate[1]}px;
      @media (max-width: 600px) {
        contain-intrinsic-block-size: auto ${estimate[0]}px;
      }
    `
  );
};

/**
 * A page section: its anchor id, a heading (h2) tied to it, and the content. A tool section whose
 * element shows its own heading is labelled instead (`headingInside`), so the title is not read twice.
 */
export function Section({
  id,
  title,
  intro,
  children,
  tint = false,
  headingInside = false,
}: {
  id: string;
  title: string;
  intro?: string;
  children: ReactNode;
  tint?: boolean;
  headingInside?: boolean;
}) {
  const headingId = `${id}-heading`;
  return (
    <section
      id={id}
      {...(headingInside ? { 'aria-label': title } : { 'aria-labelledby': headingId })}
      css={[sectionStyle, tint && { background: '#f0fdfa' }, deferred(id)]}
    >
      <div css={container}>
        {!headingInside && (
          <h2 id={headingId} css={{ fontSize: 'clamp(1.6rem, 3vw, 2.1rem)', margin: '0 0 8px' }}>
            {bidiText(title)}
          </h2>
        )}
        {intro && (
          <p css={{ margin: '0 0 24px', color: '#475569', maxWidth: '70ch', fontSize: '1.05rem' }}>{bidiText(intro)}</p>
        )}
        {children}
      </div>
    </section>
  );
}
