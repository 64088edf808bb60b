import { usePageContent } from '../content/context.ts';
import { cardGrid, cardStyle, colour } from '../styles.ts';
import { Section } from './Section.tsx';
import { bidiText } from '../../widgets/shared/ui/bidi-text.tsx';

export function Mechanism() {
  const { mechanism } = usePageContent();
  return (
    <Section id="moa" title={mechanism.title} intro={mechanism.intro}>
      <ol
        css={{
          listStyle: 'none',
          margin: '0 0 28px',
          padding: 0,
          display: 'grid',
          gap: 16,
          '@media (min-width: 800px)': { gridTemplateColumns: 'repeat(3, 1fr)' },
        }}
      >
        {mechanism.steps.map((step, index) => (
          <li key={step.title} css={[cardStyle, { display: 'grid', gap: 6 }]}>
            <span
              aria-hidden="true"
              css={{
                width: 36,
                height: 36,
                borderRadius: '50%',
                display: 'grid',
                placeItems: 'center',
                background: colour.primary,
                color: '#fff',
                fontWeight: 800,
              }}
            >
              {index + 1}
            </span>
            <h3 css={{ margin: 0, fontSize: '1.15rem' }}>{bidiText(step.title)}</h3>
            <p css={{ margin: 0 }}>{bidiText(step.text)}</p>
          </li>
        ))}
      </ol>
      <ul css={cardGrid(230)}>
        {mechanism.cards.map((card) => (
          <li key={card.title} css={[cardStyle, { borderBlockStart: `4px solid ${colour.primary}` }]}>
            <h3 css={{ margin: '0 0 6px', fontSize: '1.05rem' }}>{bidiText(card.title)}</h3>
            <p css={{ margin: 0 }}>{bidiText(card.text)}</p>
          </li>
        ))}
      </ul>
      <p
        role="note"
        css={{
          margin: '24px 0 0',
          padding: '12px 16px',
          borderRadius: 10,
          background: '#fef3c7',
          color: '#451a03',
          fontWeight: 600,
        }}
      >
        {bidiText(mechanism.note)}
      </p>
    </Section>
  );
}
