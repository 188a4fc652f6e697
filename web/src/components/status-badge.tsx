/** A state in words (never colour alone), tinted by how it went. */
export function StatusBadge({ status }: { status: string }) {
  return <span class={`badge badge-${status}`}>{status}</span>;
}
