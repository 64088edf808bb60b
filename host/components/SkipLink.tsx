import { usePageContent } from '../content/context.ts';
import { colour } from '../styles.ts';

/** The first link of the page: to the main content, shown when focused ("Skip to content"). */
export function SkipLink() {
  const { chrome } = usePageContent();
  return (
    <a
      href="#main"
      css={{
        position: 'absolute',
        insetInlineStart: 8,
        insetBlockStart: -60,
        zIndex: 100,
        padding: '10px 14px',
        background: colour.primary,
        color: '#fff',
        borderRadius: 8,
        '&:focus': { insetBlockStart: 8 },
      }}
    >
      {chrome.skipToContent}
    </a>
  );
}
