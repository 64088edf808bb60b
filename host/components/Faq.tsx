import { useState } from 'react';
import { usePageContent } from '../content/context.ts';
import { colour, disclosureButton } from '../styles.ts';
import { Section } from './Section.tsx';
import { bidiText } from '../../widgets/shared/ui/bidi-text.tsx';

/** docs/product.md §2/§4: twelve questions, at most one answer open; the open one can be closed. */
export function Faq() {
  const { faq } = usePageContent();
  const [openIndex, setOpenIndex] = useState<number | null>(null);
  return (
    <Section id="faq" title={faq.title} intro={faq.intro}>
      <div css={{ display: 'grid', gap: 10 }}>
        {faq.entries.map((entry, index) => {
          const expanded = openIndex === index;
          return (
            <div
              key={entry.question}
              css={{ background: '#fff', border: `1px solid ${colour.border}`, borderRadius: 12 }}
            >
              <h3 css={{ margin: 0, fontSize: '1.02rem' }}>
                <button
                  type="button"
                  id={`faq-${index}-button`}
                  aria-expanded={expanded}
                  aria-controls={`faq-${index}`}
                  onClick={() => setOpenIndex(expanded ? null : index)}
                  css={disclosureButton(48, 650)}
                >
                  {bidiText(entry.question)}
                  <span
                    aria-hidden="true"
                    css={{ transform: expanded ? 'rotate(180deg)' : 'none', transition: 'transform 0.15s' }}
                  >
                    ▾
                  </span>
                </button>
              </h3>
              <div
                id={`faq-${index}`}
                role="region"
                aria-labelledby={`faq-${index}-button`}
                hidden={!expanded}
                css={{ padding: '0 18px 16px' }}
              >
                <p css={{ margin: 0 }}>{bidiText(entry.answer)}</p>
              </div>
            </div>
          );
        })}
      </div>
    </Section>
  );
}
