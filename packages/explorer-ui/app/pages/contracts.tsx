import type { AddressRef } from '../types.js';
import { AddressLink, Paged, Table, Time } from '../ui.js';

interface VerifiedContract {
  address: AddressRef;
  name?: string | null;
  compiler_version?: string | null;
  verified_at?: string | null;
}

export function VerifiedContracts() {
  return (
    <>
      <h1>Verified contracts</h1>
      <Paged<VerifiedContract>
        path="/api/v2/smart-contracts"
        empty="No verified contracts yet (start the node with --artifacts, or verify through /api/v2)."
        render={(items) => (
          <Table caption="Verified contracts" head={['Contract', 'Compiler', 'Verified']}>
            {items.map((c) => (
              <tr key={c.address.hash} data-contract={c.address.hash}>
                <td>
                  <AddressLink a={c.address} short={false} />
                </td>
                <td>{c.compiler_version ?? '—'}</td>
                <td>
                  <Time iso={c.verified_at} />
                </td>
              </tr>
            ))}
          </Table>
        )}
      />
    </>
  );
}
