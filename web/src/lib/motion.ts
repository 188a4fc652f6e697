/** Smooth scrolling helps the eye follow a jump, unless the person has asked their system for less motion. */
export const scrollBehavior = (): ScrollBehavior => (matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth');
