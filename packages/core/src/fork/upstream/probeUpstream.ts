import { AshlarError } from '../../errors/AshlarError.js';
import { ErrorCodes } from '../../errors/codes.js';
import type { UpstreamClient } from './UpstreamClient.js';

/** The upstream's chain id and latest block (eth_chainId + eth_blockNumber, one batch): what a fork starts from. */
export async function probeUpstream(client: UpstreamClient): Promise<{ chainId: bigint; latest: bigint }> {
  const [chainId, latest] = await Promise.all([
    client.request<unknown>('eth_chainId', []),
    client.request<unknown>('eth_blockNumber', []),
  ]);
  return { chainId: quantity(client, 'eth_chainId', chainId), latest: quantity(client, 'eth_blockNumber', latest) };
}

function quantity(client: UpstreamClient, method: string, value: unknown): bigint {
  if (typeof value === 'string' && /^0x[0-9a-fA-F]{1,64}$/.test(value)) return BigInt(value);
  throw new AshlarError(
    ErrorCodes.FORK_UPSTREAM,
    `upstream ${client.displayUrl} answered ${method}() with a malformed result: ${String(JSON.stringify(value)).slice(0, 100)}`,
    { data: { upstream: client.displayUrl, method, params: [], attempts: 1, cause: 'malformed result' } },
  );
}
