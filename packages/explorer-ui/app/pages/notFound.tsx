import { Failure } from '../ui.js';

export function NotFound({ what, error }: { what?: string; error?: Error }) {
  return (
    <>
      <h1>Not found</h1>
      {error ? <Failure error={error} /> : null}
      <p>
        {what ?? 'This page'} was not found on this chain. <a href="/">Back to the latest blocks</a>.
      </p>
    </>
  );
}
