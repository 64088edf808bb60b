import { usePageContent } from '../content/context.ts';
import { cardGrid, cardStyle, colour, twoColumns } from '../styles.ts';
import { Section } from './Section.tsx';
import { bidiText } from '../../widgets/shared/ui/bidi-text.tsx';

export function Advantage() {
  const { advantage } = usePageContent();
  const { direct, indirect } = advantage.comparison;
  const columns = [advantage.depthColumns.depth, advantage.depthColumns.dose, advantage.depthColumns.when];
  return (
    <Section id="advantage" title={advantage.title} intro={advantage.intro} tint>
      <div css={twoColumns(28)}>
        {[direct, indirect].map((side, index) => (
          <article
            key={side.title}
            css={[cardStyle, { borderBlockStart: `4px solid ${index === 0 ? colour.primary : '#64748b'}` }]}
          >
            <h3 css={{ margin: '0 0 6px', fontSize: '1.15rem' }}>{bidiText(side.title)}</h3>
            <p css={{ margin: '0 0 8px' }}>{bidiText(side.text)}</p>
            <ul css={{ margin: 0, paddingInlineStart: '1.2em' }}>
              {side.points.map((point) => (
                <li key={point}>{bidiText(point)}</li>
              ))}
            </ul>
          </article>
        ))}
      </div>
      <div
        tabIndex={0}
        role="region"
        aria-label={advantage.depthCoverage.title}
        css={[cardStyle, { marginBlockEnd: 28, overflowX: 'auto' }]}
      >
        <h3 css={{ margin: '0 0 6px', fontSize: '1.15rem' }}>{bidiText(advantage.depthCoverage.title)}</h3>
        <p css={{ margin: '0 0 12px' }}>{bidiText(advantage.depthCoverage.text)}</p>
        <table
          css={{
            width: '100%',
            borderCollapse: 'collapse',
            minWidth: 480,
            'th, td': {
              textAlign: 'start',
              padding: '8px 10px',
              borderBlockEnd: `1px solid ${colour.border}`,
              verticalAlign: 'top',
            },
            th: { background: colour.tint },
          }}
        >
          <thead>
            <tr>
              {columns.map((column) => (
                <th key={column} scope="col">
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {advantage.depthCoverage.rows.map((row) => (
              <tr key={row.depth}>
                <th scope="row" css={{ background: 'transparent !important', fontWeight: 600 }}>
                  {bidiText(row.depth)}
                </th>
                <td css={{ fontWeight: 700, whiteSpace: 'nowrap' }}>{bidiText(row.dose)}</td>
                <td>{bidiText(row.note)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ul css={cardGrid(250)}>
        {advantage.cards.map((card) => (
          <li key={card.title} css={cardStyle}>
            <h3 css={{ margin: '0 0 6px', fontSize: '1.05rem' }}>{bidiText(card.title)}</h3>
            <p css={{ margin: 0 }}>{bidiText(card.text)}</p>
          </li>
        ))}
      </ul>
    </Section>
  );
}
