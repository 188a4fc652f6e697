import type { ComponentChildren } from 'preact';
import type { Permission } from '../api/types.js';
import { useAllowance } from '../session.js';

interface RequiresProps {
  permission: Permission;
  /** What the children do, as in "This key cannot <action>", e.g. "delete images". */
  action: string;
  children: ComponentChildren;
}

/** The children when this key holds the permission; else, in their place, why it cannot do that. */
export function Requires({ permission, action, children }: RequiresProps) {
  const { allowed, reason } = useAllowance(permission, action);
  return allowed ? <>{children}</> : <p class="refusal">{reason}</p>;
}
