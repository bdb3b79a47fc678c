import { notFoundResponse } from '../http/errors.js';
import type { RouteContext } from './context.js';

/**
 * Families spec §4.2 lists that need what the node does not keep yet: verified sources
 * (/smart-contracts) and call traces (internal transactions, raw traces). They answer 404
 * `{"message":"Not found"}` until they are served, not Blockscout's 400 for unknown paths.
 */
export function notServedRoutes({ r }: RouteContext): void {
  for (const path of [
    '/smart-contracts',
    '/smart-contracts/*',
    '/internal-transactions',
    '/transactions/:hash/internal-transactions',
    '/transactions/:hash/raw-trace',
    '/blocks/:id/internal-transactions',
    '/addresses/:hash/internal-transactions',
  ]) {
    r.fixed(path, notFoundResponse);
  }
}
