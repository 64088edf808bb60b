// The access control's dialogs ("Choose Access Mode", the portal with its sign-in and sign-up forms):
// loaded when the user first reaches for them (pointer over or focus on the button, or its click), not
// with the element, which shows only a button until then.
export { ChooserDialog } from './ChooserDialog.tsx';
export { PortalDialog } from './PortalDialog.tsx';
