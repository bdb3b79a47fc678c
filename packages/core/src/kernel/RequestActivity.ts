/**
 * How many requests a kernel has begun (JSON-RPC, over any transport or in-process). Background
 * work that nobody waits for, the explorer index's catch-up, runs in the pauses between them: a
 * count that has not moved over an interval is a pause. One per kernel (its container's).
 */
export class RequestActivity {
  /** Requests begun so far. */
  count = 0;
}
