/**
 * An empty array that V8 already holds as an array of objects (elements kind PACKED_ELEMENTS),
 * for lists of objects or strings (not of small integers or doubles, which it would box).
 *
 * A literal `[]` starts as an array of small integers; the first object pushed into it changes
 * its hidden class, and the allocation site then hands out the new kind. A list that stays empty
 * while a fresh node only moves value (the block's logs and token transfers, the code a flush
 * writes) is first filled by the first contract creation or token transfer: every loop over it
 * that V8 had optimised meets an unknown class and throws its function's code away ("wrong
 * map": indexBlock, a state flush…), and code that built such lists goes too. Lists made here
 * have the one class they will keep. The copy of an empty array costs a few ns.
 */
const EMPTY_OF_OBJECTS: unknown[] = [{}];
EMPTY_OF_OBJECTS.pop();

export function objectArray<T>(): T[] {
  return EMPTY_OF_OBJECTS.slice() as T[];
}
