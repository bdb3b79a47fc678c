import { VERSION } from '@ashlar/core';
import type { RouteContext } from './context.js';

/**
 * /config/json-rpc-url (Blockscout's ConfigController, removed there in v6.5; the spec keeps it)
 * and /config/backend-version, which Blockscout's frontend shows in its footer.
 */
export function configRoutes({ ex, r }: RouteContext): void {
  r.get('/config/json-rpc-url', () => ({ json_rpc_url: ex.jsonRpcUrl }));
  r.get('/config/backend-version', () => ({ backend_version: `ashlar/${VERSION}` }));
}
