/**
 * The throwaway records the index's modules change at load (to make fields mutable or general
 * from the start), kept for the process's life. V8 holds a class's map transitions weakly: once
 * the throwaway records were collected, their maps (with the mutable fields) went too, the next
 * record of that shape started a new chain of maps with the fields constant again, and the first
 * token transfer still threw away code optimised on them (a fresh node's W4, trace-generalization:
 * tokenCount const -> mutable in indexTokenTransfers).
 */
const kept: object[] = [];

/** Keeps `record` alive for the process's life and hands it back. */
export function keepPrimed<T extends object>(record: T): T {
  kept.push(record);
  return record;
}
