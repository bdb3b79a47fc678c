/**
 * How many JSON-RPC requests a kernel has taken: background work (the explorer index catching
 * up) compares two readings to tell a node whose clients are busy from an idle one. A counter,
 * not a timestamp, so a request pays one increment and no clock read.
 */
export class RequestActivity {
  count = 0;
}
