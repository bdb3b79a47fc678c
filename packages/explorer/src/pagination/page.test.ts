import { describe, expect, it } from 'vitest';
import { invalidParam } from '../http/errors.js';
import { transferCursor, txCursor } from './cursors.js';
import { PAGE_SIZE, pageOf } from './page.js';

describe('pagination', () => {
  it('shows 50 and builds next_page_params from the last shown item only when a 51st exists', async () => {
    const rows = Array.from({ length: 51 }, (_, i) => i);
    const page = await pageOf(
      rows,
      (s) => s.map((x) => x * 2),
      (last) => ({ n: last }),
    );
    expect(page.items).toHaveLength(PAGE_SIZE);
    expect(page.next_page_params).toEqual({ n: 49 });
    const lastPage = await pageOf(
      rows.slice(0, 50),
      (s) => s,
      (last) => ({ n: last }),
    );
    expect(lastPage.next_page_params).toBeNull();
  });

  it('reads cursors, and refuses half or malformed ones with 422', () => {
    expect(txCursor(new URLSearchParams('block_number=5&index=2'))).toEqual({ block: 5n, index: 2 });
    expect(txCursor(new URLSearchParams('block_number=&index=null'))).toBeUndefined();
    expect(() => txCursor(new URLSearchParams('block_number=5'))).toThrow(invalidParam('index', '').message);
    expect(() => txCursor(new URLSearchParams('block_number=x&index=1'))).toThrow();
    expect(transferCursor(new URLSearchParams('block_number=5&index=2&index_in_batch=3'))).toEqual({
      block: 5n,
      logIndex: 2,
      sub: 3,
    });
    expect(transferCursor(new URLSearchParams('block_number=5&index=2'))).toEqual({ block: 5n, logIndex: 2, sub: 0 });
  });
});
