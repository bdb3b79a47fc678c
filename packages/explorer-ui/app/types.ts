// The parts of Blockscout's /api/v2 answers the pages show (the node serves them in Blockscout's shapes).

export interface AddressRef {
  hash: string;
  name: string | null;
  is_contract: boolean;
  is_verified: boolean;
}

export interface Block {
  height: number;
  hash: string;
  parent_hash: string;
  timestamp: string;
  transactions_count: number;
  miner: AddressRef;
  size: number;
  gas_used: string;
  gas_limit: string;
  gas_used_percentage: number;
  base_fee_per_gas: string | null;
  burnt_fees: string | null;
  transaction_fees: string | null;
  withdrawals_count?: number;
}

export interface DecodedParam {
  name: string;
  type: string;
  value: unknown;
}

export interface Decoded {
  method_call: string;
  method_id: string;
  parameters: DecodedParam[];
}

export interface Tx {
  hash: string;
  type: number;
  nonce: number;
  from: AddressRef;
  to: AddressRef | null;
  created_contract: AddressRef | null;
  value: string;
  gas_limit: string;
  gas_used: string | null;
  gas_price: string | null;
  max_fee_per_gas: string | null;
  max_priority_fee_per_gas: string | null;
  base_fee_per_gas: string | null;
  raw_input: string;
  method: string | null;
  decoded_input: Decoded | null;
  block_number: number | null;
  timestamp: string | null;
  confirmations: number;
  position: number | null;
  status: 'ok' | 'error' | null;
  result: string;
  revert_reason: (Partial<Decoded> & { raw?: string }) | null;
  fee: { type: string; value: string | null };
}

export interface TokenInfo {
  address_hash: string;
  name: string | null;
  symbol: string | null;
  decimals: string | null;
  type: string;
  holders_count: string;
  total_supply: string | null;
}

export interface TokenTransfer {
  transaction_hash: string;
  block_number: number;
  log_index: number;
  timestamp: string | null;
  from: AddressRef;
  to: AddressRef;
  token: TokenInfo;
  total: { decimals?: string | null; value?: string; token_id?: string };
  type: string;
}

export interface Log {
  address: AddressRef;
  index: number;
  topics: (string | null)[];
  data: string;
  decoded: Decoded | null;
}

export interface InternalTx {
  index: number;
  type: string;
  call_type?: string | null;
  from: AddressRef;
  to: AddressRef | null;
  created_contract: AddressRef | null;
  value: string;
  gas_limit: string | null;
  success: boolean;
  error: string | null;
  transaction_hash: string;
  block_number: number;
}

export interface Address extends AddressRef {
  coin_balance: string | null;
  creator_address_hash: string | null;
  creation_transaction_hash: string | null;
  token: TokenInfo | null;
}

export interface Page<T> {
  items: T[];
  next_page_params: Record<string, unknown> | null;
}

export interface Stats {
  total_blocks: string;
  total_transactions: string;
  total_addresses: string;
  average_block_time: number;
  gas_prices: { slow: number; average: number; fast: number } | null;
}

export interface SearchItem {
  type: string;
  name?: string | null;
  symbol?: string | null;
  address_hash?: string;
  transaction_hash?: string;
  block_hash?: string;
  block_number?: number;
  token_type?: string;
}

export interface SmartContract {
  name?: string | null;
  is_verified?: boolean;
  compiler_version?: string | null;
  source_code?: string | null;
  abi?: unknown[] | string | null;
  deployed_bytecode?: string | null;
}
