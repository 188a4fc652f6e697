import { PageHeading } from '../components/page-heading.js';
import { Link } from '../router.js';

export function NotFound() {
  return (
    <>
      <PageHeading title="Page not found" />
      <p>
        There is no such page. Go to the <Link href="/gallery">gallery</Link> or <Link href="/generate">generate an image</Link>.
      </p>
    </>
  );
}
