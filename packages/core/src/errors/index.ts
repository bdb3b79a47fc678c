export { AshlarError, isAshlarError } from './AshlarError.js';
export { ErrorCodes, type ErrorCode } from './codes.js';
export { toRpcError, wireCodeOf, domainCodeOf, isAllowedWireCode, type RpcErrorObject } from './toRpcError.js';
export { RpcRequestError } from './RpcRequestError.js';

import { AshlarError } from './AshlarError.js';
import { ErrorCodes } from './codes.js';

export const invalidParams = (message: string, data?: unknown): AshlarError =>
  new AshlarError(ErrorCodes.INVALID_PARAMS, message, { data });
