import type { ReactNode } from 'react';
import { container, sectionStyle } from '../styles.ts';
import { bidiText } from '../../widgets/shared/bidi-text.tsx';

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
      css={[sectionStyle, tint && { background: '#f0fdfa' }]}
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
