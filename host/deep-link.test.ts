import { afterEach, describe, expect, it } from 'vitest';
import { landOnHash, targetOfHash } from './deep-link.ts';
import { chosenSection, navSectionOf, setChosenSection } from './scroll.ts';

afterEach(() => {
  document.body.innerHTML = '';
  setChosenSection(null);
});

describe('links to a section (the parts without layout; the landing itself is tested in e2e/deep-links.e2e.ts)', () => {
  it('finds the element a fragment names (raw or percent-encoded); nothing for empty, unknown, malformed', () => {
    document.body.innerHTML = '<section id="faq"></section><p id="dose mg"></p><p id="%E0%A4%A"></p>';
    expect(targetOfHash('#faq')?.id).toBe('faq');
    expect(targetOfHash('faq')?.id).toBe('faq');
    expect(targetOfHash('#dose%20mg')?.id).toBe('dose mg');
    expect(targetOfHash('#%E0%A4%A')?.id).toBe('%E0%A4%A');
    for (const hash of ['', '#', '#nothing', '#%E0%A4%B']) expect([hash, targetOfHash(hash)]).toEqual([hash, null]);
  });

  it('the nav section of an element is the section that holds it (none outside the nav sections)', () => {
    document.body.innerHTML =
      '<section id="hero"><h1 id="title">x</h1></section><section id="faq"><h2 id="faq-heading">FAQ</h2></section>';
    expect(navSectionOf(document.getElementById('faq-heading')!)).toBe('faq');
    expect(navSectionOf(document.getElementById('faq')!)).toBe('faq');
    expect(navSectionOf(document.getElementById('title')!)).toBeNull();
  });

  it('an unknown hash does nothing and clears a previous choice', () => {
    setChosenSection('faq');
    expect(landOnHash('#nothing-here')).toBe(false);
    expect(chosenSection()).toBeNull();
  });
});
