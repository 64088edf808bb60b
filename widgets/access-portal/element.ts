import { defineWidget } from '../shared/element/define-widget.tsx';
import { AccessPortal, type AccessPortalProps } from './AccessPortal.tsx';

export const ACCESS_PORTAL_TAG = 'sgx-access-portal';

/**
 * Registers <sgx-access-portal api-base profile-href hospital-name> (idempotent). It sends `sgx-signed-in`
 * ({ user }), `sgx-signed-out` ({}), `sgx-quick-use` ({}) and `sgx-error` ({ source, message }).
 */
export function defineAccessPortal(): CustomElementConstructor {
  return defineWidget<AccessPortalProps>(ACCESS_PORTAL_TAG, AccessPortal, {
    apiBase: 'string',
    profileHref: 'string',
    hospitalName: 'string',
  });
}
