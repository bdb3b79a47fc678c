/**
 * The slice of @ashlar/core this package depends on, in one place. Only types cross the
 * boundary: the transport never needs core at runtime, which keeps it usable with any engine
 * that answers JSON-RPC payloads (tests pass small fakes).
 */
import type { EngineCloseHook, RestRequest, RestResponse, RouteRegistry, RpcEngine } from '@ashlar/core';

export type { EngineCloseHook, RestRequest, RestResponse, RpcEngine };

/** What the transport asks of a route registry: structural, so a fake or a wrapper works too. */
export type RestRoutes = Pick<RouteRegistry, 'owns' | 'lookup'>;
