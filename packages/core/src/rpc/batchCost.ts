/**
 * What one request of a batch counts against the batch's cost budget (issue #20: a rate limit
 * counts requests, but one `anvil_dumpState` or `debug_traceCall` costs thousands of
 * `eth_blockNumber`). Most methods count 1; these count more, roughly by the work and the
 * answer size they can make. A budget of 10,000 thus lets a batch run 1,000 cheap calls, 100
 * traces or 20 state dumps.
 */
const COSTS: Readonly<Record<string, number>> = {
  anvil_dumpState: 500,
  hardhat_dumpState: 500,
  debug_traceCall: 100,
  debug_traceTransaction: 100,
  debug_traceBlockByNumber: 200,
  debug_traceBlockByHash: 200,
  trace_call: 100,
  trace_transaction: 100,
  trace_replayTransaction: 100,
  trace_block: 200,
  trace_replayBlockTransactions: 200,
  // trace_filter replays a range of blocks.
  trace_filter: 200,
  eth_simulateV1: 100,
  eth_createAccessList: 20,
  eth_getLogs: 10,
  eth_getFilterLogs: 10,
  eth_getFilterChanges: 10,
  ots_traceTransaction: 100,
  ots_getInternalOperations: 100,
  ots_getTransactionError: 50,
  ots_searchTransactionsBefore: 20,
  ots_searchTransactionsAfter: 20,
};

/** The cost of one batch item; a proof counts its storage keys too. */
export function batchCostOf(method: string, params: unknown): number {
  if (method === 'eth_getProof' && Array.isArray(params) && Array.isArray(params[1])) {
    return 1 + params[1].length;
  }
  return COSTS[method] ?? 1;
}
