/**
 * A catalogue's shape: the English catalogue's keys and argument lists, with any text (used by clinical/'s
 * texts and by the widgets' message catalogues, `Messages`). A translation typed as
 * `Catalogue<typeof english>` fails the type check on a missing or extra key, or on a text function
 * taking other arguments.
 */
export type Catalogue<T> = T extends string
  ? string
  : T extends (...args: infer A) => string
    ? (...args: A) => string
    : { readonly [K in keyof T]: Catalogue<T[K]> };
