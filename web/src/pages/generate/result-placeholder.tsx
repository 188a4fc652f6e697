/**
 * Where the result will show, before there is one: without it a wide screen's right half stays empty until the first
 * Generate, and nothing says what the button will bring.
 */
export function ResultPlaceholder() {
  return (
    <section class="result-placeholder" aria-labelledby="result-placeholder-heading">
      <h2 id="result-placeholder-heading">Your picture</h2>
      <div class="placeholder-frame">
        <p>Shows here once you press Generate.</p>
      </div>
      <p class="hint">
        While it is drawn you see its progress; then the picture, with its model, cost and seed, a Download button and &ldquo;Generate again with this
        seed&rdquo;. Earlier results of this session stay below it.
      </p>
    </section>
  );
}
