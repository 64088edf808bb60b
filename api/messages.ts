// The API's own messages live in contracts/ (they are part of the API, and the widgets show them in the
// element's language): this re-export keeps the routes' imports short.
export * from '../contracts/api-messages.ts';
