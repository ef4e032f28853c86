/** Spec §2: the active item of the top navigation is the first path segment, 'apps' when there is none. */
export function activeNavItem(pathname: string): string {
  const first = pathname.split('/').find((segment) => segment.length > 0);
  return first ? decodeURIComponent(first).toLowerCase() : 'apps';
}
