import type { ComponentChildren } from 'preact';
import type { Permission } from '../api/types.js';
import { permissionsOf, useSession } from '../session.js';

interface OnlyProps {
  permission: Permission;
  children: ComponentChildren;
  /** Shown instead, where saying why teaches something: one short line, not the whole refusal sentence. */
  otherwise?: ComponentChildren;
}

/**
 * The children when this key holds the permission, else nothing (or `otherwise`): a control that could only
 * lead to a disabled form or a refusal is left out. `Requires` is for the place where the reason is the point.
 */
export function Only({ permission, children, otherwise }: OnlyProps) {
  return useHolds(permission) ? <>{children}</> : <>{otherwise}</>;
}

/** Does this key hold the permission? For a control whose absence changes its surroundings (a grid without checkboxes). */
export const useHolds = (permission: Permission): boolean => permissionsOf(useSession()).includes(permission);
