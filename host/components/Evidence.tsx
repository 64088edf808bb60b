import { usePageContent } from '../content/context.ts';
import { CONTENT_EN } from '../content/en.ts';
import type { Study } from '../content/types.ts';
import { scrollToSection } from '../scroll.ts';
import { buttonStyle, cardGrid, cardStyle, colour, twoColumns } from '../styles.ts';
import { InEnglish, Ltr } from './Bidi.tsx';
import { Section } from './Section.tsx';
import { bidiText } from '../../widgets/shared/ui/bidi-text.tsx';

/**
 * docs/product.md §5: an empty or "#" link shows the alert (`message`, in the page's language); any other
 * opens in a new tab without referrer.
 */
export function openStudy(
  study: Pick<Study, 'title' | 'link'>,
  alert: (message: string) => void = window.alert.bind(window),
  message: (title: string) => string = CONTENT_EN.evidence.studyWithoutLink,
): boolean {
  if (!study.link || study.link === '#') {
    alert(message(study.title));
    return false;
  }
  return true;
}

function StudyCard({ study }: { study: Study }) {
  const { evidence, chrome } = usePageContent();
  return (
    <article
      css={[
        cardStyle,
        { borderInlineStart: `6px solid ${study.accent}`, display: 'grid', gap: 6, alignContent: 'start' },
      ]}
    >
      <p css={{ margin: 0, fontSize: '0.85rem', fontWeight: 700, color: colour.muted }}>
        <Ltr>{study.year}</Ltr>
        {study.type ? ` · ${study.type}` : ''}
      </p>
      <h3 css={{ margin: 0, fontSize: study.featured ? '1.2rem' : '1.05rem' }}>
        <InEnglish>{study.title}</InEnglish>
      </h3>
      <p css={{ margin: 0, fontSize: '0.9rem', color: colour.muted }}>
        <InEnglish>
          {study.authors} <em>{study.journal}</em>
        </InEnglish>
      </p>
      <p css={{ margin: 0 }}>{bidiText(study.description)}</p>
      <p css={{ margin: '6px 0 0' }}>
        <a
          href={study.link || '#'}
          target="_blank"
          rel="noopener noreferrer"
          onClick={(event) => {
            if (!openStudy(study, undefined, evidence.studyWithoutLink)) event.preventDefault();
          }}
          css={{ fontWeight: 700 }}
        >
          {evidence.openStudy}
          <span css={{ position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)' }}>
            : <InEnglish>{study.title}</InEnglish>
            {` (${chrome.opensInNewTab})`}
          </span>
        </a>
      </p>
    </article>
  );
}

export function Evidence() {
  const { evidence } = usePageContent();
  const featured = evidence.studies.filter((study) => study.featured);
  const additional = evidence.studies.filter((study) => !study.featured);
  return (
    <Section id="evidence" title={evidence.title} intro={evidence.intro}>
      <div css={twoColumns(16)}>
        {featured.map((study) => (
          <StudyCard key={study.title} study={study} />
        ))}
      </div>
      <div css={cardGrid(260)}>
        {additional.map((study) => (
          <StudyCard key={study.title} study={study} />
        ))}
      </div>
      <p css={{ margin: '24px 0 0' }}>
        <button type="button" css={buttonStyle('secondary')} onClick={() => scrollToSection('resources')}>
          {evidence.evidencePackButton}
        </button>
      </p>
    </Section>
  );
}
