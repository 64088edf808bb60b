import { usePageContent } from '../content/context.ts';
import { scrollToSection } from '../scroll.ts';
import { buttonStyle, container } from '../styles.ts';
import { bidiText } from '../../widgets/shared/ui/bidi-text.tsx';
import { PdfLanguageNote, usePdfHrefLang } from './Bidi.tsx';

/** docs/product.md §2: the contact footer. */
export function Contact() {
  const { contact } = usePageContent();
  const pdfHrefLang = usePdfHrefLang();
  return (
    <footer
      id="contact"
      aria-labelledby="contact-heading"
      css={{ background: '#0f172a', color: '#e2e8f0', paddingBlock: '48px 32px' }}
    >
      <div css={[container, { display: 'grid', gap: 24 }]}>
        <h2 id="contact-heading" css={{ margin: 0, color: '#fff', fontSize: 'clamp(1.6rem, 3vw, 2.1rem)' }}>
          {contact.title}
        </h2>
        <div
          css={{
            display: 'grid',
            gap: 24,
            '@media (min-width: 800px)': { gridTemplateColumns: '1.2fr 1fr' },
            alignItems: 'start',
          }}
        >
          <article css={{ background: '#1e293b', borderRadius: 12, padding: 20, border: '1px solid #334155' }}>
            <h3 css={{ margin: '0 0 8px', color: '#fff' }}>{bidiText(contact.productName)}</h3>
            <ul css={{ margin: 0, paddingInlineStart: '1.2em' }}>
              {contact.productCard.map((line) => (
                <li key={line}>{bidiText(line)}</li>
              ))}
            </ul>
            <p css={{ margin: '12px 0 0' }}>
              <span
                css={{
                  display: 'inline-block',
                  padding: '4px 12px',
                  borderRadius: 999,
                  background: '#14532d',
                  color: '#dcfce7',
                  fontWeight: 800,
                }}
              >
                {contact.saudiMade}
              </span>
            </p>
          </article>
          <div css={{ display: 'flex', flexWrap: 'wrap', gap: 12 }}>
            <button
              type="button"
              css={[buttonStyle('primary'), { borderColor: '#2dd4bf' }]}
              onClick={() => scrollToSection('calculator')}
            >
              {contact.calculateButton}
            </button>
            <button
              type="button"
              css={[
                buttonStyle('secondary'),
                { color: '#ccfbf1', borderColor: '#2dd4bf', '&:hover': { background: '#134e4a' } },
              ]}
              onClick={() => scrollToSection('resources')}
            >
              {contact.resourcesButton}
            </button>
          </div>
        </div>
        <div
          css={{
            borderBlockStart: '1px solid #334155',
            paddingBlockStart: 16,
            display: 'grid',
            gap: 4,
            fontSize: '0.9rem',
            color: '#cbd5e1',
          }}
        >
          <p css={{ margin: 0, fontWeight: 700, color: '#fde68a' }}>{bidiText(contact.hcpOnly)}</p>
          <p css={{ margin: 0 }}>{bidiText(contact.decisionSupport)}</p>
          <p css={{ margin: 0 }}>{bidiText(contact.lastUpdated)}</p>
          {/* Built with each release: the clinical rules, their sources and tests (README "Clinical verification"). */}
          <p css={{ margin: 0, display: 'flex', flexWrap: 'wrap', gap: 6 }}>
            <a href="/clinical-verification.html" {...pdfHrefLang} css={{ color: '#99f6e4', fontWeight: 600 }}>
              {contact.clinicalVerification}
            </a>
            <PdfLanguageNote />
          </p>
          <p css={{ margin: 0 }}>{bidiText(contact.copyright)}</p>
        </div>
      </div>
    </footer>
  );
}
