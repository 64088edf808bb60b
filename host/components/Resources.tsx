import { usePageContent } from '../content/context.ts';
import type { Resource } from '../content/types.ts';
import { cardGrid, cardStyle, colour } from '../styles.ts';
import { PdfLanguageNote, usePdfHrefLang } from './Bidi.tsx';
import { Section } from './Section.tsx';
import { bidiText } from '../../widgets/shared/ui/bidi-text.tsx';

function ResourceCard({ resource }: { resource: Resource }) {
  const { resources } = usePageContent();
  const pdfHrefLang = usePdfHrefLang();
  return (
    <li
      css={[
        cardStyle,
        { borderBlockStart: `5px solid ${resource.colour}`, display: 'grid', gap: 8, alignContent: 'start' },
      ]}
    >
      <h3 css={{ margin: 0, fontSize: '1.05rem' }}>{bidiText(resource.title)}</h3>
      <p css={{ margin: 0 }}>{bidiText(resource.description)}</p>
      <p css={{ margin: 0, display: 'flex', alignItems: 'center', gap: 10, flexWrap: 'wrap' }}>
        <span
          css={{
            fontSize: '0.8rem',
            fontWeight: 800,
            padding: '2px 8px',
            borderRadius: 6,
            border: `1px solid ${colour.border}`,
          }}
        >
          {resource.format}
        </span>
        <a href={`/${resource.file}`} download {...pdfHrefLang} css={{ fontWeight: 700 }}>
          {resources.downloadLabel}
          <span css={{ position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)' }}>
            : {bidiText(resource.title)}
          </span>
        </a>
        <PdfLanguageNote />
      </p>
    </li>
  );
}

export function Resources() {
  const { resources } = usePageContent();
  return (
    <Section id="resources" title={resources.title} intro={resources.intro} tint>
      <ul css={cardGrid(260)}>
        {resources.resources.map((resource) => (
          <ResourceCard key={resource.file} resource={resource} />
        ))}
      </ul>
      <ul css={{ listStyle: 'none', margin: '16px 0 0', padding: 0, display: 'grid', gap: 16 }}>
        <ResourceCard resource={resources.textbook} />
      </ul>
    </Section>
  );
}
