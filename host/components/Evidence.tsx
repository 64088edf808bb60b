import { EVIDENCE } from '../content/index.ts';
import type { Study } from '../content/types.ts';
import { scrollToSection } from '../scroll.ts';
import { buttonStyle, cardGrid, cardStyle, colour, twoColumns } from '../styles.ts';
import { Section } from './Section.tsx';

/** docs/product.md §5: an empty or "#" link shows the alert; any other opens in a new tab without referrer. */
export function openStudy(
  study: Pick<Study, 'title' | 'link'>,
  alert: (message: string) => void = window.alert.bind(window),
): boolean {
  if (!study.link || study.link === '#') {
    alert(`Study: ${study.title}\n\nLink will be available when published.`);
    return false;
  }
  return true;
}

function StudyCard({ study }: { study: Study }) {
  return (
    <article
      css={[
        cardStyle,
        { borderInlineStart: `6px solid ${study.accent}`, display: 'grid', gap: 6, alignContent: 'start' },
      ]}
    >
      <p css={{ margin: 0, fontSize: '0.85rem', fontWeight: 700, color: colour.muted }}>
        {study.year}
        {study.type ? ` · ${study.type}` : ''}
      </p>
      <h3 css={{ margin: 0, fontSize: study.featured ? '1.2rem' : '1.05rem' }}>{study.title}</h3>
      <p css={{ margin: 0, fontSize: '0.9rem', color: colour.muted }}>
        {study.authors} <em>{study.journal}</em>
      </p>
      <p css={{ margin: 0 }}>{study.description}</p>
      <p css={{ margin: '6px 0 0' }}>
        <a
          href={study.link || '#'}
          target="_blank"
          rel="noopener noreferrer"
          onClick={(event) => {
            if (!openStudy(study)) event.preventDefault();
          }}
          css={{ fontWeight: 700 }}
        >
          {EVIDENCE.openStudy}
          <span css={{ position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)' }}>
            : {study.title} (opens in a new tab)
          </span>
        </a>
      </p>
    </article>
  );
}

export function Evidence() {
  const featured = EVIDENCE.studies.filter((study) => study.featured);
  const additional = EVIDENCE.studies.filter((study) => !study.featured);
  return (
    <Section id="evidence" title={EVIDENCE.title} intro={EVIDENCE.intro}>
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
          {EVIDENCE.evidencePackButton}
        </button>
      </p>
    </Section>
  );
}
