import { useState } from 'react';
import { usePageContent } from '../content/context.ts';
import { colour, disclosureButton } from '../styles.ts';
import { InEnglish } from './Bidi.tsx';
import { Section } from './Section.tsx';
import { bidiText } from '../../widgets/shared/ui/bidi-text.tsx';

/** docs/product.md §2: four panels; several may be open at once; each toggles on click (a disclosure each). */
export function SafetyHub() {
  const { safety } = usePageContent();
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const toggle = (id: string) =>
    setOpen((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  return (
    <Section id="safety" title={safety.title} intro={safety.intro} tint>
      <div css={{ display: 'grid', gap: 12 }}>
        {safety.panels.map((panel) => {
          const expanded = open.has(panel.id);
          return (
            <div key={panel.id} css={{ background: '#fff', border: `1px solid ${colour.border}`, borderRadius: 12 }}>
              <h3 css={{ margin: 0, fontSize: '1.1rem' }}>
                <button
                  type="button"
                  id={`safety-${panel.id}-button`}
                  aria-expanded={expanded}
                  aria-controls={`safety-${panel.id}`}
                  onClick={() => toggle(panel.id)}
                  css={disclosureButton(52, 700)}
                >
                  {bidiText(panel.title)}
                  <span
                    aria-hidden="true"
                    css={{
                      fontSize: '1.3rem',
                      transform: expanded ? 'rotate(45deg)' : 'none',
                      transition: 'transform 0.15s',
                    }}
                  >
                    +
                  </span>
                </button>
              </h3>
              <div
                id={`safety-${panel.id}`}
                role="region"
                aria-labelledby={`safety-${panel.id}-button`}
                hidden={!expanded}
                css={{ padding: '0 18px 16px' }}
              >
                <ul css={{ margin: 0, paddingInlineStart: '1.2em', display: 'grid', gap: 6 }}>
                  {panel.items.map((item) => (
                    <li key={item}>{bidiText(item)}</li>
                  ))}
                </ul>
                <p css={{ margin: '10px 0 0', fontSize: '0.85rem', color: colour.muted }}>
                  <InEnglish>{panel.source}</InEnglish>
                </p>
              </div>
            </div>
          );
        })}
      </div>
    </Section>
  );
}
