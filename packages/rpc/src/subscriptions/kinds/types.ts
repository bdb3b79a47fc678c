import type { FeedListener } from '../ChainFeed.js';

export type Notify = (result: unknown) => void;

/** One `eth_subscribe` kind: checks its optional parameter, then says which events it turns into notifications. */
export interface SubscriptionKind {
  /**
   * Decodes the second eth_subscribe parameter (undefined when absent) before anything is
   * registered; a DecodeError or AshlarError here leaves no subscription behind.
   */
  prepare(options: unknown): (notify: Notify) => FeedListener;
}
