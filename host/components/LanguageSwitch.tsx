import { usePageContent } from '../content/context.ts';
import { rememberLang } from '../content/languages.ts';

/** The other language's page at the same section: `/ar/#faq` from the English FAQ, `/` from the Arabic hero. */
export function languageHref(page: string, section: string | null): string {
  return section ? `${page}#${section}` : page;
}

/**
 * The link to the page in the other language ("العربية" on the English page, "English" on the Arabic
 * one), at the section in view (the ids are the same in both languages). Following it remembers the
 * choice (`sgx-lang`). Styled by the nav (`className`), like its links.
 */
export function LanguageSwitch({ section, className }: { section: string | null; className?: string }) {
  const { languageSwitch } = usePageContent().chrome;
  return (
    <a
      href={languageHref(languageSwitch.href, section)}
      lang={languageSwitch.lang}
      hrefLang={languageSwitch.lang}
      onClick={() => rememberLang(languageSwitch.lang)}
      className={className}
    >
      {languageSwitch.label}
    </a>
  );
}
