import r2wc from '@r2wc/react-to-web-component';
import type { ComponentType } from 'react';
import { noteAlreadyDefined, recordDefinition } from '../loading/releases.ts';
import { WidgetRoot } from './widget-root.tsx';

/** r2wc's own markers (see @r2wc/core): whether it may render, the props it renders with, and its render. */
const R2WC_CONNECTED = Symbol.for('r2wc.connected');
const R2WC_PROPS = Symbol.for('r2wc.props');
const R2WC_RENDER = Symbol.for('r2wc.render');

/** r2wc's attribute name for a prop: `ageGroup` → `age-group`. */
const attributeOf = (prop: string) =>
  prop.replace(/([a-z0-9])([A-Z])/g, (_, a: string, b: string) => `${a}-${b.toLowerCase()}`);

/**
 * The attribute a framework writes for a camelCase prop when the element has no such property yet: React 19
 * sets `ageGroup` on a custom element not yet defined as an attribute, which HTML lowercases to `agegroup`.
 */
const lowercaseAliasOf = (prop: string) => prop.toLowerCase();

interface R2wcInternals {
  [R2WC_CONNECTED]: boolean;
  [R2WC_PROPS]: Record<string, unknown>;
  [R2WC_RENDER](): void;
}

/** Attributes are strings (kebab-case of the prop name); r2wc's presence booleans are unreliable. */
export type AttributeTypes<Props> = { [K in keyof Props]?: 'string' | 'number' };

/**
 * Registers a React component as a custom element, once (a second bundle on the page finds it
 * defined and returns the existing class; if it is another release, the console says so once, see
 * releases.ts). Fixes the r2wc edges of docs/engineering-notes.md#r2wc-edges:
 * - it renders only once connected (r2wc treats a new element as connected, so an element built
 *   off-DOM would render into a detached shadow root and, built for production, lose its styles);
 * - it unmounts a microtask after disconnection, and not at all when the element is connected
 *   again (moving an element keeps its React state; a host React page removing it does not
 *   unmount a root synchronously inside React's render);
 * - a property set before the script loaded is re-applied on upgrade (the own property is deleted and set
 *   again through the element's accessor), and a camelCase prop that a framework wrote as a lowercased
 *   attribute before the definition (React 19: `ageGroup` → `agegroup`) is taken as that prop, then and later;
 * - an attribute without a value (`<sgx-… emergency>`) reaches its prop as "", and a removed one as
 *   undefined (r2wc skips both, so a removed preset stayed in force).
 */
export function defineWidget<Props extends object>(
  tagName: string,
  Component: ComponentType<Props>,
  attributes: AttributeTypes<Props>,
): CustomElementConstructor {
  const existing = customElements.get(tagName);
  if (existing) {
    noteAlreadyDefined(tagName, import.meta.url);
    return existing;
  }

  const Inner = Component as ComponentType<object>;
  const Rooted = ({ container, ...props }: Props & { container?: ShadowRoot }) => (
    <WidgetRoot container={container}>
      <Inner {...props} />
    </WidgetRoot>
  );
  const Base = r2wc(Rooted as ComponentType<Props>, { shadow: 'open', props: attributes as Record<string, 'string'> });
  const propNames = Object.keys(attributes);
  const propOfAttribute = new Map(propNames.map((prop) => [attributeOf(prop), prop]));
  const propOfAlias = new Map(
    propNames
      .filter((prop) => lowercaseAliasOf(prop) !== attributeOf(prop))
      .map((prop) => [lowercaseAliasOf(prop), prop]),
  );
  const observed = [...(Base as unknown as { observedAttributes: string[] }).observedAttributes, ...propOfAlias.keys()];
  /** What an empty or absent attribute means for the prop: "" for a string, nothing for a number. */
  const emptyValue = (prop: string, value: string | null) =>
    value === null || attributes[prop as keyof Props] === 'number' ? undefined : '';
  /** An attribute's value as the prop, as r2wc reads it (a number parsed), "" and absent as above. */
  const propValue = (prop: string, value: string | null) =>
    !value ? emptyValue(prop, value) : attributes[prop as keyof Props] === 'number' ? parseFloat(value) : value;

  class SgxElement extends Base {
    #upgraded = false;

    static get observedAttributes() {
      return observed;
    }

    constructor() {
      super();
      const internals = this as unknown as R2wcInternals;
      internals[R2WC_CONNECTED] = false;
      for (const [attribute, prop] of propOfAttribute)
        if (this.getAttribute(attribute) === '') internals[R2WC_PROPS][prop] = emptyValue(prop, '');
      // Written by a framework before the definition; the kebab-case attribute, when there is one, wins.
      for (const [alias, prop] of propOfAlias)
        if (this.hasAttribute(alias) && !this.hasAttribute(attributeOf(prop)))
          internals[R2WC_PROPS][prop] = propValue(prop, this.getAttribute(alias));
    }

    attributeChangedCallback(name: string, previous: string | null, value: string | null) {
      const alias = propOfAlias.get(name);
      if (alias !== undefined) {
        if (this.hasAttribute(attributeOf(alias))) return; // the kebab-case attribute wins
        const internals = this as unknown as R2wcInternals;
        internals[R2WC_PROPS][alias] = propValue(alias, value);
        internals[R2WC_RENDER]();
        return;
      }
      const prop = propOfAttribute.get(name);
      if (value || prop === undefined) {
        (
          Base.prototype as unknown as { attributeChangedCallback(...args: unknown[]): void }
        ).attributeChangedCallback.call(this, name, previous, value);
        return;
      }
      const internals = this as unknown as R2wcInternals;
      internals[R2WC_PROPS][prop] = emptyValue(prop, value);
      internals[R2WC_RENDER]();
    }

    connectedCallback() {
      if (!this.#upgraded) {
        this.#upgraded = true;
        reapplyOwnProperties(this, propNames);
      }
      (this as unknown as R2wcInternals)[R2WC_CONNECTED] = true;
      (Base.prototype as unknown as { connectedCallback(): void }).connectedCallback.call(this);
    }

    disconnectedCallback() {
      queueMicrotask(() => {
        // (typeof document: a test environment may already be torn down when the microtask runs)
        if (!this.isConnected && typeof document !== 'undefined')
          (Base.prototype as unknown as { disconnectedCallback(): void }).disconnectedCallback.call(this);
      });
    }
  }
  customElements.define(tagName, SgxElement);
  recordDefinition(tagName, import.meta.url);
  return SgxElement;
}

/** A value assigned to `element.prop` before the class existed sits on the instance, hiding the accessor. */
function reapplyOwnProperties(element: HTMLElement, names: readonly string[]) {
  for (const name of names) {
    if (!Object.hasOwn(element, name)) continue;
    const value = (element as unknown as Record<string, unknown>)[name];
    delete (element as unknown as Record<string, unknown>)[name];
    (element as unknown as Record<string, unknown>)[name] = value;
  }
}
