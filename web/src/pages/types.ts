/** What every page gets from the router: its path parameters and the query string. */
export interface PageProps {
  params: Record<string, string>;
  query: URLSearchParams;
}
