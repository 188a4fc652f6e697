import { useEffect, useRef, useState } from 'preact/hooks';

/** How far below the screen the end of the list may be for the next page to start loading. */
const MARGIN = 400;

/**
 * Loads the next page when the end of the list scrolls into view, and keeps a real button for keyboards
 * and for browsers that scroll differently. A page too short to fill the screen keeps loading.
 */
export function LoadMore({ hasMore, loading, count, onLoad, label }: { hasMore: boolean; loading: boolean; count: number; onLoad: () => void; label: string }) {
  const sentinel = useRef<HTMLDivElement>(null);
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    const element = sentinel.current;
    if (element === null || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => setVisible(entries.some((entry) => entry.isIntersecting)), { rootMargin: `${MARGIN}px 0px` });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  useEffect(() => {
    // The observer reports crossings a frame late; after new items render, look at where the end really is now.
    const near = (sentinel.current?.getBoundingClientRect().top ?? Infinity) < window.innerHeight + MARGIN;
    if (visible && near && hasMore && !loading) onLoad();
  }, [visible, hasMore, loading, count]);

  return (
    <div class="load-more" ref={sentinel}>
      {hasMore && (
        <button type="button" class="button" disabled={loading} onClick={onLoad}>
          {loading ? 'Loading…' : label}
        </button>
      )}
    </div>
  );
}
